// What the figure and error-map tests read from a drawing: the ink in a box of a PNG (where
// text or a line was drawn), and the glyphs of an SVG, each character Cairo set being one
// <use> of its glyph's outline.
#pragma once

#include <string>
#include <vector>

#include "plot/figure_canvas.h"

namespace test {

// The pixels of x0 <= x < x1, y0 <= y < y1 darker than a light grey.
inline int ink(const gpulab::RgbImage& image, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const gpulab::Rgb c = image.at(x, y);
      n += c.r + c.g + c.b < 3 * 160;
    }
  return n;
}

// The characters of a canvas's words (UTF-8: the bytes that start one), a glyph each in its SVG.
inline int characters(const std::vector<std::string>& words) {
  int n = 0;
  for (const std::string& w : words)
    for (unsigned char c : w) n += (c & 0xC0) != 0x80;
  return n;
}

inline int glyphs_in(const std::string& svg) {
  int n = 0;
  for (size_t at = svg.find("<use xlink:href=\"#glyph"); at != std::string::npos;
       at = svg.find("<use xlink:href=\"#glyph", at + 1))
    ++n;
  return n;
}

}  // namespace test
