// For generators that keep atoms clear of a lattice (scatter-gather, coarsening, binning): the
// distance along one axis to the nearest lattice position, measured in float32 as student code
// computes the positions (i * h).
#pragma once

#include <algorithm>
#include <cmath>

namespace gpulab {

// Distance along one axis from coordinate c to the nearest of the n float32 lattice positions.
inline float axis_gap(float c, int n, float h) {
  const long i = std::lround(c / h);
  const int clamped = static_cast<int>(std::min<long>(std::max<long>(i, 0), n - 1));
  float best = std::fabs(c - clamped * h);
  for (int d : {-1, 1}) {
    const int k = clamped + d;
    if (k >= 0 && k < n) best = std::min(best, std::fabs(c - k * h));
  }
  return best;
}

}  // namespace gpulab
