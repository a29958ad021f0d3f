// The histogram by sort and find-starts (histogram.md section 3, part 4) traced step by step
// for the handout's figure: the keys sorted, where each run of equal keys starts, the bins'
// starts as the one-thread-per-boundary loop writes them (empty bins included), and the counts
// as the starts' adjacent differences.
#pragma once

#include <vector>

namespace gpulab {

struct FindStartsTrace {
  std::vector<int> keys;       // as given
  std::vector<int> sorted;     // the keys in ascending order
  std::vector<int> run_start;  // per position i: 1 where i = 0 or sorted[i - 1] != sorted[i]
  // bins + 1 entries: bin b's first position, which is also the boundary i (0 … n) whose
  // thread wrote it; start[bins] = n.
  std::vector<int> start;
  std::vector<int> counts;  // bins entries: start[b + 1] − start[b]
};

// Throws std::invalid_argument for bins < 1 or a key outside [0, bins); std::logic_error if a
// start is not written exactly once or the counts differ from a counting loop's.
FindStartsTrace find_starts_trace(const std::vector<int>& keys, int bins);

}  // namespace gpulab
