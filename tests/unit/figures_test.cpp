// The handouts' figures: the drawing layer (grader/plot/figure_canvas.h: SVG text, the raster),
// PNG through libpng (grader/plot/png_file.h), the labs' drawers found by lab id
// (grader/figures/figures.h), the traced scans (families/scan/figures/scan_trace.h) and the
// neighbour offsets binning.md's table counts (handouts/figures/binning/neighbour_offsets.h). The
// figures themselves are compared with the committed ones by the ctest `figures`
// (tests/figures/check_figures.py).
#include "figures/figures.h"

#include <doctest/doctest.h>

#include <fstream>

#include "binning/neighbour_offsets.h"
#include "plot/colour_map.h"
#include "plot/figure_canvas.h"
#include "plot/png_file.h"
#include "scan/figures/scan_trace.h"
#include "test_util.h"

namespace {

using namespace gpulab;

int listed_offsets(double cutoff, double bin, double a, double extent, int* in_box) {
  const OffsetRange r = offset_range(cutoff, bin, a, extent);
  int listed = 0;
  *in_box = 0;
  for (int z = r.lo; z <= r.hi; ++z)
    for (int y = r.lo; y <= r.hi; ++y)
      for (int x = r.lo; x <= r.hi; ++x) {
        const double gx = offset_gap(x, bin, a, extent), gy = offset_gap(y, bin, a, extent),
                     gz = offset_gap(z, bin, a, extent);
        ++*in_box;
        listed += gx * gx + gy * gy + gz * gz < cutoff * cutoff;
      }
  return listed;
}

}  // namespace

TEST_CASE("each lab's own figures are found by its id, and only its own") {
  // Every handouts/figures/<lab>/ with code registers its drawer under that lab's id.
  namespace fs = std::filesystem;
  const auto found = [](const std::string& lab) { return find_figures(lab) != nullptr; };
  int with_code = 0;
  for (const auto& e : fs::directory_iterator(test::source_dir() / "handouts" / "figures")) {
    if (!fs::exists(e.path() / "figures.cpp")) continue;
    ++with_code;
    CAPTURE(e.path());
    CHECK(found(e.path().filename().string()));
  }
  CHECK(with_code >= 6);
  CHECK_FALSE(found("coarsening"));  // a lab whose only figures are its bench plots
  CHECK_FALSE(found("no-such-lab"));
  CHECK_THROWS_WITH_AS(register_figures("scan", find_figures("scan")),
                       doctest::Contains("two figure drawers for the lab \"scan\""),
                       std::logic_error);
}

TEST_CASE("the traced Brent-Kung scans end in the exclusive scans of the handouts' example") {
  const std::vector<long long> x{3, 1, 4, 1, 5, 9, 2, 6};
  const auto plain = brent_kung_trace(x);
  REQUIRE(plain.size() == 8);  // input, 3 up-sweep levels, the root cleared, 3 down-sweep levels
  CHECK(plain[3].values[7] == 31);  // the tile's total at the root after the up-sweep
  CHECK(plain[3].label == "up d=4");
  CHECK(plain.back().values == std::vector<long long>{0, 3, 4, 8, 9, 14, 23, 25});
  CHECK(plain[1].changed == std::vector<int>{1, 3, 5, 7});

  // segmented-scan.md section 1's example and its exclusive result.
  const auto seg = segmented_brent_kung_trace(x, {1, 0, 0, 1, 0, 0, 0, 1});
  CHECK(seg.back().values == std::vector<long long>{0, 3, 4, 0, 1, 6, 15, 0});
  // Element 0 starts a segment whatever its flag says.
  CHECK(segmented_brent_kung_trace(x, {0, 0, 0, 1, 0, 0, 0, 1}).back().values == seg.back().values);
  CHECK_THROWS_AS(brent_kung_trace({1, 2, 3}), std::invalid_argument);
}

TEST_CASE("the neighbour offsets count as binning.md's table and example say") {
  int box = 0;
  // rc = 12, B = 4, tiles of 8 points 0.5 apart: aligned, and half a bin off.
  CHECK(listed_offsets(12, 4, 0, 3.5, &box) == 302);
  CHECK(box == 343);
  CHECK(listed_offsets(12, 4, 2, 3.5, &box) == 348);
  CHECK(box == 512);
  // odd-33x31x9: the last tile's points reach 5.5 from its base bin's face, which needs offset 4.
  CHECK(offset_range(5, 2.5, 0, 3.5).hi == 3);
  CHECK(offset_range(5, 2.5, 2, 3.5).hi == 4);
  CHECK(offset_range(5, 2.5, 0, 3.5).lo == -2);
}

TEST_CASE("a canvas as SVG: every shape, text escaped, the same bytes every time") {
  Canvas c(40, 30, Rgb{250, 250, 250});
  c.rect(1.5, 2, 10, 5.25, Rgb{255, 0, 0}, kBlack);
  c.line(0, 0, 40, 30, Rgb{0, 0, 255}, 2);
  c.text(20, 15, "a < b & \"c\"", 10, Anchor::middle);
  const std::string svg = c.svg();
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\"", 0) == 0);
  CHECK(test::contains(svg,
                       "<rect x=\"1.5\" y=\"2\" width=\"10\" height=\"5.25\" fill=\"#ff0000\" "
                       "stroke=\"#000000\""));
  CHECK(test::contains(svg, "<line x1=\"0\" y1=\"0\" x2=\"40\" y2=\"30\" stroke=\"#0000ff\""));
  CHECK(test::contains(svg, ">a &lt; b &amp; &quot;c&quot;</text>"));
  CHECK(test::contains(svg, "text-anchor=\"middle\""));
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  CHECK(svg == c.svg());
  CHECK_THROWS(Canvas(0, 10));
}

TEST_CASE("a canvas as PNG: libpng reads back its size and pixels, and no time is written") {
  Canvas c(20, 10, kWhite);
  c.rect(2, 2, 4, 3, Rgb{200, 0, 0});                 // pixels x 2..5, y 2..4
  c.rect(10, 0, 5, 5, Rgb{0, 200, 0}, Rgb{0, 0, 9});  // outlined
  c.line(0, 8.5, 20, 8.5, Rgb{0, 0, 200});            // the row y = 8
  c.text(1, 1, "not in the PNG");
  const test::TempDir dir;
  const auto file = dir.path() / "c.png";
  const std::string bytes = png_bytes({c.width(), c.height(), c.raster()});
  std::ofstream(file, std::ios::binary) << bytes;
  CHECK(bytes.substr(1, 3) == "PNG");
  CHECK(bytes.find("tIME") == std::string::npos);
  CHECK(bytes == png_bytes({c.width(), c.height(), c.raster()}));

  const RgbImage img = read_png(file);
  REQUIRE(img.width == 20);
  REQUIRE(img.height == 10);
  auto at = [&](int x, int y) {
    const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * 20 + x) * 3];
    return Rgb{p[0], p[1], p[2]};
  };
  CHECK(at(0, 0) == kWhite);
  CHECK(at(2, 2) == Rgb{200, 0, 0});
  CHECK(at(5, 4) == Rgb{200, 0, 0});
  CHECK(at(6, 4) == kWhite);
  CHECK(at(5, 5) == kWhite);
  CHECK(at(10, 0) == Rgb{0, 0, 9});    // the outline
  CHECK(at(12, 2) == Rgb{0, 200, 0});  // inside it
  CHECK(at(7, 8) == Rgb{0, 0, 200});
  CHECK(at(7, 7) == kWhite);
  CHECK(at(7, 9) == kWhite);

  std::ofstream(dir.path() / "bad.png") << "not a png";
  CHECK_THROWS_AS(read_png(dir.path() / "bad.png"), std::runtime_error);
  CHECK_THROWS_AS(png_bytes({2, 2, {0, 0, 0}}), std::runtime_error);
}

TEST_CASE("the colour maps: their ends, white at zero, NaN and out-of-range values clamped") {
  CHECK(diverging_colour(0) == kWhite);
  CHECK(diverging_colour(-1) == Rgb{40, 80, 170});
  CHECK(diverging_colour(5) == Rgb{180, 30, 40});
  CHECK(diverging_colour(std::nan("")) == kWhite);
  CHECK(sequential_colour(0) == Rgb{40, 30, 90});
  CHECK(sequential_colour(1) == Rgb{250, 230, 40});
  CHECK(sequential_colour(-3) == sequential_colour(0));
}
