// grader/plot/error_map.h and error_map_files.h: the map of where a failing output is wrong picks
// the plane with the largest error over its bound, counts what is over it as the check does, draws
// nothing for a passing output, and is kept where grading keeps it, never for a hidden dataset.
#include "plot/error_map.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "data/check.h"
#include "data/dataset_store.h"
#include "drawn_image.h"
#include "gather_dataset.h"
#include "grade/error_map_files.h"
#include "lab/lab_config.h"
#include "npy.h"
#include "plot/colour_map.h"
#include "poison.h"
#include "sealed_test_outputs.h"
#include "test_util.h"

namespace {

using gpulab::ErrorMap;
using gpulab::ErrorMapInput;

// An output of `shape`, right to 1e-6 of a bound of 1e-3 everywhere, but where planted.
struct Planted {
  std::vector<size_t> shape;
  std::vector<double> expected, bound;
  std::vector<float> got;

  explicit Planted(std::vector<size_t> s) : shape(std::move(s)) {
    size_t n = 1;
    for (size_t d : shape) n *= d;
    for (size_t i = 0; i < n; ++i) {
      expected.push_back(static_cast<double>(i % 17) * 0.25);  // exact in float
      bound.push_back(1e-3);
      got.push_back(static_cast<float>(expected.back() + 1e-6));
    }
  }
  ErrorMapInput input() const {
    return {"potential of gather on dataset planted",
            shape,
            shape,
            got.data(),
            expected.data(),
            bound.data()};
  }
};

// The colour of the pixel at the centre of the map's square for element (j, i) of a plane
// drawn one element a square (j = 0 at the bottom).
gpulab::Rgb pixel_of(const ErrorMap& m, size_t ny, size_t j, size_t i) {
  const gpulab::MapPlace& at = m.place;
  const int x = static_cast<int>(at.left + (static_cast<double>(i) + 0.5) * at.cell);
  const int y = static_cast<int>(at.top + (static_cast<double>(ny - 1 - j) + 0.5) * at.cell);
  return gpulab::decode_png(m.canvas.png()).at(x, y);
}

bool reddish(gpulab::Rgb c) {
  return c.r > 100 && c.g < 80 && c.b < 80;
}

}  // namespace

TEST_CASE("error map: a planted error picks its plane, is counted over the bound, outlined") {
  Planted p({3, 5, 7});
  const size_t flat = (2 * 5 + 3) * 7 + 4;                    // [2][3][4]
  p.got[flat] = static_cast<float>(p.expected[flat] + 5e-3);  // 5 times its bound
  p.got[10] = static_cast<float>(p.expected[10] + 0.5e-3);    // within it, plane 0
  const auto m = gpulab::draw_error_map(p.input());
  REQUIRE(m);
  CHECK(m->plane == 2);
  CHECK(m->planes == 3);
  CHECK(m->count == 105);
  CHECK(m->over_bound == 1);
  CHECK(m->not_finite == 0);
  CHECK(m->unwritten == 0);
  CHECK(m->worst_index == flat);
  CHECK(m->plane_words == "plane k = 2 of 3");
  CHECK(test::contains(m->words,
                       "potential of gather on dataset planted: error over its bound, "
                       "plane k = 2 of 3 (7 x 5 values)"));
  CHECK(test::contains(m->words, "1 of 105 values over the bound (1 of these in this plane)"));
  CHECK(test::contains(m->words, "the worst, at [2][3][4]: 5 times its bound"));
  // Over the bound in red, the rest in the colours within it.
  CHECK(reddish(pixel_of(*m, 5, 3, 4)));
  CHECK_FALSE(reddish(pixel_of(*m, 5, 0, 0)));
  // The words are drawn in the PNG: the title, the ticks' numbers below the map and left of it,
  // the axes' names and the colour bar's words; the margin right of them is empty.
  const gpulab::RgbImage img = gpulab::decode_png(m->canvas.png());
  CHECK(img.width == m->canvas.width());
  CHECK(img.height == m->canvas.height());
  const gpulab::MapPlace& at = m->place;
  const int left = static_cast<int>(at.left), top = static_cast<int>(at.top);
  const int right = static_cast<int>(at.left + 7 * at.cell),
            bottom = static_cast<int>(at.top + 5 * at.cell);
  CHECK(test::ink(img, 12, 8, 400, 26) > 200);                         // the title
  CHECK(test::ink(img, left, bottom + 6, right, bottom + 17) > 20);    // i's ticks: 0 .. 6
  CHECK(test::ink(img, 0, top, left - 4, bottom) > 20);                // j's ticks and name
  CHECK(test::ink(img, right + 28, top - 20, img.width, top) > 20);    // "error / bound"
  CHECK(test::ink(img, right + 50, top, img.width, top + 200) > 100);  // the bar's words
  CHECK(test::ink(img, img.width - 8, 0, img.width, img.height) == 0);
  // The SVG is the same drawing: a glyph for each character, title and words included.
  const std::string svg = m->canvas.svg();
  CHECK(test::glyphs_in(svg) > 250);
  // Byte for byte the same each time.
  CHECK(gpulab::draw_error_map(p.input())->canvas.svg() == svg);
  CHECK(gpulab::draw_error_map(p.input())->canvas.png() == m->canvas.png());
}

TEST_CASE("error map: nothing for a passing output, another shape or rank, or one-value planes") {
  Planted p({3, 5, 7});
  CHECK_FALSE(gpulab::draw_error_map(p.input()));  // all within the bound
  p.got[0] = 100;
  CHECK(gpulab::draw_error_map(p.input()));
  ErrorMapInput other_shape = p.input();
  other_shape.got_shape = {3, 7, 5};
  CHECK_FALSE(gpulab::draw_error_map(other_shape));
  ErrorMapInput rank1 = p.input();
  rank1.shape = rank1.got_shape = {105};
  CHECK_FALSE(gpulab::draw_error_map(rank1));
  ErrorMapInput rank4 = p.input();
  rank4.shape = rank4.got_shape = {1, 3, 5, 7};
  CHECK_FALSE(gpulab::draw_error_map(rank4));
  Planted tiny({4, 1, 1});  // nothing to see where
  tiny.got[2] = 100;
  CHECK_FALSE(gpulab::draw_error_map(tiny.input()));
  // Nothing written at all (a stub): the check's message says so, a grey map would not add to
  // it; one value written makes it a map again.
  Planted stub({2, 3, 4});
  for (float& v : stub.got) v = gpulab::poison_float();
  CHECK_FALSE(gpulab::draw_error_map(stub.input()));
  stub.got[5] = 0;
  CHECK(gpulab::draw_error_map(stub.input()));
}

TEST_CASE("error map: a NaN or a value never written outranks any finite error") {
  Planted p({3, 4, 4});
  p.got[16 + 5] = 1e6f;               // plane 1: a huge finite error
  p.got[2 * 16 + 7] = std::nanf("");  // plane 2: a NaN the code computed
  p.got[3] = gpulab::poison_float();  // plane 0: never written
  const auto m = gpulab::draw_error_map(p.input());
  REQUIRE(m);
  CHECK(m->over_bound == 1);
  CHECK(m->not_finite == 1);
  CHECK(m->unwritten == 1);
  CHECK(m->plane == 2);
  CHECK(m->worst_index == 2 * 16 + 7);
  CHECK(test::contains(m->words, "1 NaN or infinity, 1 never written"));
  // Magenta for the NaN: no colour of the scales.
  const gpulab::Rgb nan = pixel_of(*m, 4, 1, 3);
  CHECK(nan.r > 200);
  CHECK(nan.b > 200);
  CHECK(nan.g < 40);
}

TEST_CASE("error map: a wide rank-2 output is drawn in blocks, each its worst") {
  Planted p({3, 300});
  p.got[2 * 300 + 299] = 7.0f;
  const auto m = gpulab::draw_error_map(p.input());
  REQUIRE(m);
  CHECK(m->plane_words.empty());
  CHECK(m->worst_index == 2 * 300 + 299);
  CHECK(test::contains(m->words, "each square the worst of 3 x 3 values"));
  CHECK(test::contains(m->words, "error over its bound (300 x 3 values)"));
  // 100 squares of 5 pixels across, ticked every 50 values (a square of 3): the tick of 250
  // stands at the middle of square 83.
  CHECK(m->place.cell == 5);
  const gpulab::RgbImage img = gpulab::decode_png(m->canvas.png());
  const int bottom = static_cast<int>(m->place.top + m->place.cell);
  const int tick250 = static_cast<int>(m->place.left + 83.5 * m->place.cell);
  CHECK(img.at(tick250, bottom + 2) == gpulab::kBlack);
  CHECK(img.at(tick250 + 3, bottom + 2) == gpulab::kWhite);
}

namespace {

// A public dataset of scatter-gather, odd-33x31x5 (5 x 31 x 33): the maps are named after it.
struct Dataset : test::GatherDataset {
  Dataset() : GatherDataset("odd-33x31x5") {}
  // The oracle's answer rounded to float, with element `at` moved by `times` its bound.
  void write_output(size_t at, double times) const {
    const gpulab::NpyArray e = gpulab::read_npy(ds.expected / "potential.npy");
    const std::vector<double> bound = gpulab::element_bounds(lab.outputs.at("potential"), ds);
    std::vector<float> v = correct();
    v[at] = static_cast<float>(e.as<double>()[at] + times * bound[at]);
    gpulab::write_npy(dir / "out" / "potential.npy", shape, v.data());
  }
};

}  // namespace

TEST_CASE("error map files: with the check's own bound, kept beside the report, named") {
  Dataset d;
  const size_t at = (3 * 31 + 17) * 33 + 5;  // [3][17][5]
  gpulab::GradeOptions o;
  o.error_maps_beside = d.dir / "results.json";
  std::ostringstream log;

  // Within its bound by half: the check passes, and there is no map.
  d.write_output(at, 0.5);
  CHECK(
      gpulab::check_outputs(d.lab, *d.part, d.ds, test::sealed_outputs(d.dir / "out"), false).pass);
  CHECK_FALSE(gpulab::draw_error_map_files(d.lab, *d.part, d.ds,
                                           test::sealed_outputs(d.dir / "out"), o, log));

  // Past it by half: the check fails on that value alone, and the map agrees.
  d.write_output(at, 1.5);
  const gpulab::CheckResult c =
      gpulab::check_outputs(d.lab, *d.part, d.ds, test::sealed_outputs(d.dir / "out"), false);
  CHECK_FALSE(c.pass);
  CHECK(test::contains(c.message, "1 of 5115 values are outside the error bound"));
  const auto drawn = gpulab::draw_error_map_files(d.lab, *d.part, d.ds,
                                                  test::sealed_outputs(d.dir / "out"), o, log);
  REQUIRE(drawn);
  const auto png = d.dir / "results.gather.odd-33x31x5.error.png";
  const auto svg = d.dir / "results.gather.odd-33x31x5.error.svg";
  CHECK(drawn->note ==
        "A map of where potential is wrong on odd-33x31x5 (each value's error over its "
        "bound; plane k = 3 of 5, the worst): results.gather.odd-33x31x5.error.png beside the "
        "report (as SVG: results.gather.odd-33x31x5.error.svg).");
  REQUIRE(drawn->image);
  CHECK(test::contains(drawn->image->label, "1 of 5115 values over the bound"));
  CHECK(test::contains(drawn->image->label, "the worst, at [3][17][5]"));
  CHECK(test::glyphs_in(test::read_file(svg)) > 250);
  // 33 squares of 15 pixels across, with the title above them.
  const gpulab::RgbImage image = gpulab::decode_png(test::read_file(png));
  CHECK(image.width > 33 * 15);
  CHECK(test::ink(image, 12, 8, 400, 26) > 200);
  CHECK(drawn->image->file == png.string());
  CHECK(drawn->image->png == test::read_file(png));
  CHECK(test::contains(drawn->image->label, "potential of gather on dataset odd-33x31x5"));
  CHECK(log.str().empty());

  // The next grading removes it first.
  gpulab::remove_error_maps(d.lab, o);
  CHECK_FALSE(std::filesystem::exists(png));
  CHECK_FALSE(std::filesystem::exists(svg));

  // run --keep-outputs DIR: beside the kept outputs instead.
  o.keep_outputs = d.dir / "kept";
  const auto kept = gpulab::draw_error_map_files(d.lab, *d.part, d.ds,
                                                 test::sealed_outputs(d.dir / "out"), o, log);
  REQUIRE(kept);
  CHECK(std::filesystem::exists(d.dir / "kept" / "gather" / "odd-33x31x5" / "potential.error.png"));
  CHECK(std::filesystem::exists(d.dir / "kept" / "gather" / "odd-33x31x5" / "potential.error.svg"));

  // Nowhere to keep it: the note says how to get one.
  o.keep_outputs.clear();
  o.error_maps_beside.clear();
  const auto nowhere = gpulab::draw_error_map_files(d.lab, *d.part, d.ds,
                                                    test::sealed_outputs(d.dir / "out"), o, log);
  REQUIRE(nowhere);
  CHECK_FALSE(nowhere->image);
  CHECK(test::contains(nowhere->note, "gpulab run --keep-outputs DIR (or --out FILE) draws one"));
}

TEST_CASE("error map files: never for a hidden dataset, whose expected output is secret") {
  Dataset d;
  d.write_output(100, 10);
  gpulab::DatasetDirs hidden = d.ds;
  hidden.hidden = true;
  gpulab::GradeOptions o;
  o.error_maps_beside = d.dir / "results.json";
  std::ostringstream log;
  CHECK_FALSE(gpulab::draw_error_map_files(d.lab, *d.part, hidden,
                                           test::sealed_outputs(d.dir / "out"), o, log));
  CHECK_FALSE(std::filesystem::exists(d.dir / "results.gather.odd-33x31x5.error.png"));
  CHECK(gpulab::draw_error_map_files(d.lab, *d.part, d.ds, test::sealed_outputs(d.dir / "out"), o,
                                     log));
}
