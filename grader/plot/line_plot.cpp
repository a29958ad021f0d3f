#include "plot/line_plot.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "text/number_text.h"

namespace gpulab {

namespace {

constexpr double kWidth = 760, kHeight = 460;
constexpr double kLeft = 78, kRight = 200, kTop = 96, kBottom = 64;
constexpr Rgb kAxis{90, 90, 90}, kCeiling{150, 20, 20};
// Colour-blind-safe (Okabe–Ito), one per series.
constexpr Rgb kPalette[] = {{0, 114, 178},   {230, 159, 0},  {0, 158, 115},
                            {204, 121, 167}, {86, 180, 233}, {213, 94, 0}};

}  // namespace

std::string decade_label(int exponent) {
  if (exponent == 0) return "1";
  if (exponent == 1) return "10";
  return "1e" + std::to_string(exponent);
}

Canvas draw_line_plot(const LinePlot& plot) {
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
  for (const auto& s : plot.series) {
    if (s.x.size() != s.y.size()) throw std::invalid_argument(s.label + ": x and y differ");
    for (size_t i = 0; i < s.x.size(); ++i) {
      if (!(s.x[i] > 0) || !(s.y[i] > 0) || !std::isfinite(s.x[i]) || !std::isfinite(s.y[i]))
        throw std::invalid_argument(s.label + ": a point is not positive and finite");
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min(y_lo, s.y[i]);
      y_hi = std::max(y_hi, s.y[i]);
    }
  }
  if (!(x_lo <= x_hi)) throw std::invalid_argument("a plot needs at least one point");
  if (plot.ceiling > 0) y_hi = std::max(y_hi, plot.ceiling);
  // Whole decades on y; x padded by a fifth of its span on either side (in log terms).
  const int d_lo = static_cast<int>(std::floor(std::log10(y_lo)));
  const int d_hi = std::max(d_lo + 1, static_cast<int>(std::ceil(std::log10(y_hi))));
  const double lx_lo = std::log10(x_lo), lx_hi = std::log10(x_hi);
  const double pad = std::max(0.2, (lx_hi - lx_lo) * 0.06);
  const double ax0 = kLeft, ax1 = kWidth - kRight, ay0 = kHeight - kBottom, ay1 = kTop;
  const auto px = [&](double x) {
    return ax0 + (std::log10(x) - (lx_lo - pad)) / (lx_hi - lx_lo + 2 * pad) * (ax1 - ax0);
  };
  const auto py = [&](double y) {
    return ay0 - (std::log10(y) - d_lo) / (d_hi - d_lo) * (ay0 - ay1);
  };

  Canvas c(static_cast<int>(kWidth), static_cast<int>(kHeight));
  c.text(12, 24, plot.title, 15);
  // The subtitle a line per '\n'.
  double line_y = 44;
  for (size_t at = 0; at <= plot.subtitle.size(); line_y += 16) {
    const size_t end = std::min(plot.subtitle.find('\n', at), plot.subtitle.size());
    c.text(12, line_y, plot.subtitle.substr(at, end - at), 11, Anchor::start, kAxis);
    at = end + 1;
  }
  for (int d = d_lo; d <= d_hi; ++d) {
    c.line(ax0, py(std::pow(10.0, d)), ax1, py(std::pow(10.0, d)), kGrid);
    c.text(ax0 - 6, py(std::pow(10.0, d)) + 4, decade_label(d), 11, Anchor::end);
  }
  std::vector<double> xs;
  for (const auto& s : plot.series) xs.insert(xs.end(), s.x.begin(), s.x.end());
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  for (double x : xs) {
    c.line(px(x), ay0, px(x), ay0 + 5, kAxis);
    c.text(px(x), ay0 + 18, printf_text("%g", x), 11, Anchor::middle);
  }
  c.line(ax0, ay0, ax1, ay0, kAxis);
  c.line(ax0, ay0, ax0, ay1, kAxis);
  c.text((ax0 + ax1) / 2, kHeight - 18, plot.x_label, 12, Anchor::middle);
  c.text(12, ay1 - 14, plot.y_label, 12);
  if (plot.ceiling > 0) {
    const double y = py(plot.ceiling);
    for (double x = ax0; x < ax1; x += 12) c.line(x, y, std::min(x + 7, ax1), y, kCeiling, 1.5);
  }
  double legend_y = ay1 + 8;
  for (size_t k = 0; k < plot.series.size(); ++k) {
    const PlotSeries& s = plot.series[k];
    const Rgb colour = kPalette[k % std::size(kPalette)];
    for (size_t i = 0; i + 1 < s.x.size(); ++i)
      c.line(px(s.x[i]), py(s.y[i]), px(s.x[i + 1]), py(s.y[i + 1]), colour, 2);
    for (size_t i = 0; i < s.x.size(); ++i)
      c.rect(px(s.x[i]) - 3.5, py(s.y[i]) - 3.5, 7, 7, colour, kBlack);
    c.rect(ax1 + 16, legend_y - 4, 18, 8, colour, kBlack);
    c.text(ax1 + 40, legend_y + 4, s.label, 12);
    legend_y += 22;
  }
  if (plot.ceiling > 0) {
    for (double x = ax1 + 16; x < ax1 + 34; x += 8)
      c.line(x, legend_y, x + 5, legend_y, kCeiling, 1.5);
    c.text(ax1 + 40, legend_y + 4, plot.ceiling_label, 12);
  }
  return c;
}

}  // namespace gpulab
