// The Brent–Kung trees of scan.md and segmented-scan.md, drawn alike: a row per level, a box per
// element, a line for each value a level's update read; on the 8-element example of
// segmented-scan.md section 1. Both labs' figures (handouts/figures/<lab>/figures.cpp) draw
// their trace (scan_trace.h) with it.
#pragma once

#include <string>
#include <vector>

#include "plot/figure_canvas.h"
#include "scan_trace.h"

namespace gpulab {

inline const std::vector<long long> kTraceExample{3, 1, 4, 1, 5, 9, 2, 6};
inline const std::vector<int> kTraceHeads{1, 0, 0, 1, 0, 0, 0, 1};  // segmented-scan's segments

// with_flags: a red corner on every element whose head flag is set after the level.
Canvas draw_trace(const std::vector<TraceLevel>& levels, const std::string& title, bool with_flags);

}  // namespace gpulab
