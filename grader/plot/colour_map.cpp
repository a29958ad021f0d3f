#include "plot/colour_map.h"

#include <algorithm>
#include <cmath>

namespace gpulab {

namespace {

// Linear between evenly spaced stops, rounded to the nearest level.
template <size_t N>
Rgb between(const Rgb (&stops)[N], double t) {
  if (!(t >= 0)) t = 0;  // NaN too
  t = std::min(t, 1.0) * (N - 1);
  const size_t i = std::min(static_cast<size_t>(t), N - 2);
  const double f = t - i;
  auto mix = [f](uint8_t a, uint8_t b) {
    return static_cast<uint8_t>(std::lround(a + (static_cast<double>(b) - a) * f));
  };
  const Rgb a = stops[i], b = stops[i + 1];
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

}  // namespace

Rgb sequential_colour(double t) {
  static const Rgb stops[] = {
      {40, 30, 90}, {40, 110, 140}, {50, 170, 120}, {170, 210, 60}, {250, 230, 40}};
  return between(stops, t);
}

Rgb diverging_colour(double t) {
  static const Rgb stops[] = {
      {40, 80, 170}, {150, 190, 230}, {255, 255, 255}, {240, 160, 130}, {180, 30, 40}};
  if (std::isnan(t)) t = 0;
  return between(stops, (std::clamp(t, -1.0, 1.0) + 1) / 2);
}

Rgb alarm_colour(double t) {
  static const Rgb stops[] = {{240, 70, 40}, {190, 20, 30}, {110, 0, 20}};
  return between(stops, t);
}

}  // namespace gpulab
