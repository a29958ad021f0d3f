// A line plot on log-log axes for the handouts' bench plots (figures_sweeps.cpp): a line per
// series with a marker per point, an optional dashed horizontal line (a hardware ceiling), a
// decade grid on y and a tick at each x of the data.
#pragma once

#include <string>
#include <vector>

#include "plot/figure_canvas.h"

namespace gpulab {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;  // same length, all > 0
};

struct LinePlot {
  std::string title;
  std::string subtitle;  // lines apart by '\n'
  std::string x_label, y_label;
  std::vector<PlotSeries> series;
  double ceiling = 0;  // > 0: a dashed line at this y
  std::string ceiling_label;
};

// Throws std::invalid_argument for a series whose points are not positive and finite.
Canvas draw_line_plot(const LinePlot& plot);

// y's tick label: 1e9 as "1e9", 3e9 as "3e9", 1 as "1".
std::string decade_label(int exponent);

}  // namespace gpulab
