// The Brent–Kung scan of one tile traced level by level, for the handouts' figures (scan.md
// section 1, segmented-scan.md section 3): the same loops as the handouts give, recording after
// each level every element's value (and flag) and which elements each update read.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gpulab {

struct TraceLevel {
  std::string label;                       // "up d=1", "clear root", ...
  std::vector<long long> values;           // s after the level
  std::vector<int> flags;                  // f after the level (segmented scans only)
  std::vector<int> changed;                // the elements the level wrote
  std::vector<std::pair<int, int>> reads;  // (element read before the level, element written)
};

// The exclusive scan of x (a power-of-two length): the input, each up-sweep level, the root
// cleared, each down-sweep level. Throws std::logic_error if the last level is not the exclusive
// scan a loop computes.
std::vector<TraceLevel> brent_kung_trace(const std::vector<long long>& x);

// The same with head flags and the segmented operator; the last level is the exclusive
// segmented scan (0 at every head), checked against a loop likewise.
std::vector<TraceLevel> segmented_brent_kung_trace(const std::vector<long long>& x,
                                                   const std::vector<int>& flags);

}  // namespace gpulab
