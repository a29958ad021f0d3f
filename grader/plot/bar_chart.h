// A bar chart on a figure's canvas: one bar per value, on a linear axis or a logarithmic one
// (powers of ten, the axis starting at ½ so that a bar of 1 shows; a bar of 0 is left out), with
// grid lines, tick labels and axis titles. Shared by the histogram and particle-grid figures.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "plot/figure_canvas.h"

namespace gpulab {

struct BarChart {
  double left = 0, top = 0, width = 0, height = 0;  // the plot area, in pixels
  std::vector<long long> values;                    // left to right, each >= 0
  bool log_scale = false;
  Rgb colour{90, 130, 190};
  size_t label_every = 1;                      // an x label under every this many bars
  std::function<std::string(size_t)> x_label;  // the label under bar k
  std::string x_title, y_title;

  // The value at the top of the axis: a power of ten (log) or 1, 2 or 5 times one (linear).
  double axis_top() const;
  // Pixel coordinates: x of a position in bars (bar k spans [k, k + 1)), y of a value.
  double x(double bars) const;
  double y(double value) const;
};

void draw(Canvas& c, const BarChart& chart);

// The smallest of 1, 2, 5, 10, 20, 50, … that cuts `count` things into at most `parts` groups:
// the width of a histogram's bars, or the bars between two labels.
long long round_step(long long count, long long parts);

}  // namespace gpulab
