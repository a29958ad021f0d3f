// A map of where a float output is wrong, for a student whose output failed its check: one
// plane of a rank-2 or rank-3 output (the one with the largest error over its bound), each
// element coloured by its error over its bound on a log scale: within the bound dark blue (no
// error) to yellow (at the bound), over it red to dark red, a NaN or infinity magenta, a value
// never written grey; the worst element outlined. The bound is the check's own, element by
// element (check.h's element_bounds), so the map agrees with the check: an element is over the
// bound exactly where the check counts it as failing. A plane larger than kMaxCells a side is
// drawn in square blocks, each the colour of its worst element. The title, the counts, the axes'
// ticks and names and the colour bar's words are drawn with it, in the PNG and the SVG alike
// (figure_canvas.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "plot/figure_canvas.h"

namespace gpulab {

// The largest number of squares a side of the map has.
constexpr size_t kMaxCells = 128;

struct ErrorMapInput {
  std::string title;              // what the map is of: "potential of gather on dataset medium"
  std::vector<size_t> shape;      // the expected output's: (ny, nx) or (nz, ny, nx)
  std::vector<size_t> got_shape;  // the output's
  const float* got = nullptr;
  const double* expected = nullptr;
  const double* bound = nullptr;  // each element's bound, of the expected shape
};

// Where the squares stand on the canvas: the map's top left corner, the side of a square.
struct MapPlace {
  double left = 0, top = 0, cell = 0;
};

struct ErrorMap {
  Canvas canvas;
  size_t plane = 0, planes = 1;  // k of (nz, ny, nx), of nz; 0 of 1 for a rank-2 output
  size_t count = 0;              // elements of the whole output
  size_t over_bound = 0;         // finite values past their bound, in the whole output
  size_t not_finite = 0;         // NaN or infinite values computed
  size_t unwritten = 0;          // values never written (still the poison NaN)
  size_t worst_index = 0;        // the outlined element, flat
  std::string plane_words{};     // "plane k = 2 of 5" ("" for a rank-2 output)
  std::string words{};           // the title and the counts, one paragraph (the report's label)
  MapPlace place{};              // where element (j, i)'s square is (a reader of the pixels)
};

// The map of the plane with the largest error over its bound (a NaN or a value never written
// counting as the largest, ties going to the plane with more values over the bound, then to the
// first); nothing where every value is within its bound, no value was written at all, the
// output is not of rank 2 or 3, its shape is not the expected one, or its planes hold one
// element each (nothing to see where).
std::optional<ErrorMap> draw_error_map(const ErrorMapInput& in);

}  // namespace gpulab
