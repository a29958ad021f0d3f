#include "plot/bar_chart.h"

#include <algorithm>
#include <cmath>

namespace gpulab {

namespace {

constexpr double kLogBottom = 0.5;

double most(const BarChart& b) {
  return b.values.empty()
             ? 0
             : static_cast<double>(*std::max_element(b.values.begin(), b.values.end()));
}

// The text of an axis value: whole numbers, as they are counts.
std::string bar_value_text(double v) {
  return std::to_string(std::llround(v));
}

}  // namespace

double BarChart::axis_top() const {
  const double m = std::max(most(*this), 1.0);
  double p = 1;
  if (log_scale) {
    while (p < m) p *= 10;
    return std::max(p, 10.0);
  }
  while (p * 10 <= m) p *= 10;
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * p >= m) return f * p;
  return 10 * p;
}

double BarChart::x(double bars) const {
  return left + bars * width / std::max<size_t>(values.size(), 1);
}

double BarChart::y(double value) const {
  const double top_value = axis_top();
  const double lowest = std::log10(kLogBottom);
  const double f = log_scale ? (std::log10(std::max(value, kLogBottom)) - lowest) /
                                   (std::log10(top_value) - lowest)
                             : value / top_value;
  return top + height * (1 - f);
}

void draw(Canvas& c, const BarChart& b) {
  const double top_value = b.axis_top(), bottom = b.top + b.height;
  std::vector<double> ticks;
  if (b.log_scale)
    for (double v = 1; v <= top_value; v *= 10) ticks.push_back(v);
  else
    for (int k = 0; k <= 5; ++k) ticks.push_back(top_value * k / 5);
  for (double v : ticks) {
    c.line(b.left, b.y(v), b.left + b.width, b.y(v), kGrid);
    c.text(b.left - 6, b.y(v) + 4, bar_value_text(v), 11, Anchor::end);
  }
  const double w = b.width / std::max<size_t>(b.values.size(), 1);
  for (size_t k = 0; k < b.values.size(); ++k) {
    const long long v = b.values[k];
    if (v == 0) continue;
    const double y = b.y(static_cast<double>(v));
    c.rect(b.x(static_cast<double>(k)), y, w > 3 ? w - 1 : w, bottom - y, b.colour);
  }
  c.line(b.left, bottom, b.left + b.width, bottom, kBlack);
  c.line(b.left, b.top, b.left, bottom, kBlack);
  for (size_t k = 0; b.x_label && k < b.values.size(); k += std::max<size_t>(b.label_every, 1)) {
    const double x = b.x(k + 0.5);
    c.line(x, bottom, x, bottom + 4, kBlack);
    c.text(x, bottom + 17, b.x_label(k), 11, Anchor::middle);
  }
  c.text(b.left + b.width / 2, bottom + 36, b.x_title, 12, Anchor::middle);
  c.text(b.left, b.top - 10, b.y_title, 12, Anchor::middle, kGrey);
}

long long round_step(long long count, long long parts) {
  for (long long p = 1;; p *= 10)
    for (long long f : {1, 2, 5})
      if ((count + f * p - 1) / (f * p) <= parts) return f * p;
}

}  // namespace gpulab
