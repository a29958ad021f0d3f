#include "stats.h"

#include <algorithm>
#include <cmath>

namespace gpulab {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2) return hi;
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<long>(mid));
  return 0.5 * (lo + hi);
}

double median_standard_error(const std::vector<double>& v) {
  if (v.size() < 2) return INFINITY;
  const double m = median(v);
  std::vector<double> dev(v.size());
  for (size_t i = 0; i < v.size(); ++i) dev[i] = std::fabs(v[i] - m);
  const double sigma = 1.4826 * median(dev);
  return 1.2533 * sigma / std::sqrt(static_cast<double>(v.size()));
}

std::vector<double> round_ratios(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> ratios;
  for (size_t r = 0; r < a.size() && r < b.size(); ++r) ratios.push_back(a[r] / b[r]);
  return ratios;
}

double median_round_ratio(const std::vector<double>& a, const std::vector<double>& b) {
  return median(round_ratios(a, b));
}

bool values_agree(const std::vector<double>& v, double within) {
  if (v.empty()) return true;
  if (!std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) return false;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *hi - *lo <= within * std::fabs(median(v));
}

}  // namespace gpulab
