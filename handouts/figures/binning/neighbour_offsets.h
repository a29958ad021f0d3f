// The neighbour offsets of binning.md section 3 along one axis and in 3-D: a tile's points span
// [a, a + extent] from its base bin's low face; offset o's bin spans [o·B, (o+1)·B].
#pragma once

#include <algorithm>
#include <cmath>

namespace gpulab {

struct OffsetRange {
  int lo, hi;  // the offsets the stretch from rc below to rc above the points touches
};

inline OffsetRange offset_range(double cutoff, double bin, double a, double extent) {
  return {static_cast<int>(std::floor((a - cutoff) / bin)),
          static_cast<int>(std::ceil((a + extent + cutoff) / bin)) - 1};
}

// The distance along one axis from the tile's points to the bin at offset o.
inline double offset_gap(int o, double bin, double a, double extent) {
  return std::max({0.0, o * bin - (a + extent), a - (o + 1) * bin});
}

}  // namespace gpulab
