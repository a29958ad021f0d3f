// The handouts' figures: the drawing layer (grader/plot/figure_canvas.h: one drawing through
// Cairo to SVG and PNG, text included), the labs' drawers found by lab id
// (grader/figures/figures.h), the traced scans (families/scan/figures/scan_trace.h) and the
// neighbour offsets binning.md's table counts (handouts/figures/binning/neighbour_offsets.h). The
// figures themselves are compared with the committed ones by the ctest `figures`
// (tests/figures/check_figures.py).
#include "figures/figures.h"

#include <doctest/doctest.h>

#include "binning/neighbour_offsets.h"
#include "drawn_image.h"
#include "plot/colour_map.h"
#include "plot/figure_canvas.h"
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

TEST_CASE("a canvas as SVG: Cairo's shapes, a glyph per character, the same bytes every time") {
  Canvas c(40, 30, Rgb{250, 250, 250});
  c.rect(1.5, 2, 10, 5.25, Rgb{255, 0, 0}, kBlack);
  c.line(0, 0, 40, 30, Rgb{0, 0, 255}, 2);
  c.text(20, 15, "a < b & \"c\"", 10, Anchor::middle);
  const std::string svg = c.svg();
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(test::contains(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(test::contains(svg, "width=\"40px\" height=\"30px\" viewBox=\"0 0 40 30\""));
  CHECK(test::contains(svg, "fill:rgb(100%,0%,0%)"));    // the rectangle
  CHECK(test::contains(svg, "stroke:rgb(0%,0%,100%)"));  // the line
  CHECK(test::glyphs_in(svg) == 11);  // a glyph per character, spaces and quotes included
  CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
  // The words as text too, escaped, for search and screen readers: the first as the title.
  CHECK(test::contains(svg, "<title>a &lt; b &amp; &quot;c&quot;</title>"));
  CHECK(test::contains(svg, "<desc>a &lt; b &amp; &quot;c&quot;</desc>"));
  // Cairo counts the surfaces a process makes into the SVG's ids: another figure drawn in
  // between leaves this one's bytes as they were.
  CHECK(Canvas(10, 10).svg() != svg);
  CHECK(svg == c.svg());
  Canvas other(40, 30, Rgb{250, 250, 250});
  other.text(20, 15, "a < b", 10, Anchor::middle);
  other.text(20, 25, "below", 8);
  CHECK(test::glyphs_in(other.svg()) == 10);
  CHECK(test::contains(other.svg(), "<title>a &lt; b</title>\n<desc>a &lt; b\nbelow</desc>"));
  CHECK_FALSE(test::contains(Canvas(10, 10).svg(), "<title>"));  // no words, none
  CHECK_THROWS(Canvas(0, 10));
}

TEST_CASE("a canvas as PNG: Cairo reads back its size, pixels and text, and no time is written") {
  Canvas c(60, 30, kWhite);
  c.rect(2, 2, 4, 3, Rgb{200, 0, 0});                 // pixels x 2..5, y 2..4
  c.rect(10, 0, 5, 5, Rgb{0, 200, 0}, Rgb{0, 0, 9});  // outlined
  c.line(0, 8.5, 20, 8.5, Rgb{0, 0, 200});            // the row y = 8
  c.line(0, 12, 20, 12, Rgb{0, 0, 200});              // half a pixel down: the row y = 12
  c.text(30, 26, "Hi", 14);
  const std::string bytes = c.png();
  CHECK(bytes.substr(1, 3) == "PNG");
  CHECK(bytes.find("tIME") == std::string::npos);
  CHECK(bytes == c.png());

  const RgbImage img = decode_png(bytes);
  REQUIRE(img.width == 60);
  REQUIRE(img.height == 30);
  CHECK(img.at(0, 0) == kWhite);
  CHECK(img.at(2, 2) == Rgb{200, 0, 0});
  CHECK(img.at(5, 4) == Rgb{200, 0, 0});
  CHECK(img.at(6, 4) == kWhite);
  CHECK(img.at(5, 5) == kWhite);
  CHECK(img.at(10, 0) == Rgb{0, 0, 9});    // the outline
  CHECK(img.at(12, 2) == Rgb{0, 200, 0});  // inside it
  CHECK(img.at(7, 8) == Rgb{0, 0, 200});
  CHECK(img.at(7, 7) == kWhite);
  CHECK(img.at(7, 9) == kWhite);
  CHECK(img.at(7, 12) == Rgb{0, 0, 200});
  CHECK(img.at(7, 11) == kWhite);
  CHECK(img.at(7, 13) == kWhite);
  // The text: ink where "Hi" stands (its cap height above the baseline), none beside it.
  CHECK(test::ink(img, 30, 15, 50, 26) > 20);
  CHECK(test::ink(img, 30, 0, 60, 14) == 0);
  CHECK(test::ink(img, 52, 15, 60, 30) == 0);

  CHECK_THROWS_AS(decode_png("not a png"), std::runtime_error);
}

TEST_CASE("text is measured as it is set: wider letters, longer and larger text advance further") {
  CHECK(text_width("", 12) == 0);
  CHECK(text_width("iii", 12) < text_width("WWW", 12));
  CHECK(text_width("abcd", 12) > text_width("abc", 12));
  // Without hinting an advance grows with the size alone.
  CHECK(text_width("abc", 24) == doctest::Approx(2 * text_width("abc", 12)));
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
