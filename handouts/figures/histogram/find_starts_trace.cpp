#include "find_starts_trace.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpulab {

FindStartsTrace find_starts_trace(const std::vector<int>& keys, int bins) {
  if (bins < 1) throw std::invalid_argument("a histogram has at least one bin");
  for (int k : keys)
    if (k < 0 || k >= bins)
      throw std::invalid_argument("key " + std::to_string(k) + " is outside [0, " +
                                  std::to_string(bins) + ")");
  FindStartsTrace t;
  t.keys = keys;
  t.sorted = keys;
  std::sort(t.sorted.begin(), t.sorted.end());
  const int n = static_cast<int>(keys.size());
  const auto b = static_cast<size_t>(bins);
  for (int i = 0; i < n; ++i) t.run_start.push_back(i == 0 || t.sorted[i - 1] != t.sorted[i]);
  // One thread per boundary i between positions i − 1 and i: before position 0 every bin up to
  // sorted[0] starts at 0; past the end every bin after sorted[n − 1], up to `bins`, at n.
  t.start.assign(b + 1, -1);
  for (int i = 0; i <= n; ++i) {
    const int below = i == 0 ? -1 : t.sorted[i - 1], at = i == n ? bins : t.sorted[i];
    for (int bin = below + 1; bin <= at; ++bin) {
      if (t.start[bin] != -1) throw std::logic_error("a bin's start is written twice");
      t.start[bin] = i;
    }
  }
  std::vector<int> loop(b, 0);
  for (int k : keys) ++loop[k];
  for (size_t bin = 0; bin < b; ++bin) {
    if (t.start[bin] == -1) throw std::logic_error("a bin's start is never written");
    t.counts.push_back(t.start[bin + 1] - t.start[bin]);
  }
  if (t.start[b] == -1 || t.counts != loop)
    throw std::logic_error("the starts' differences are not the bins' counts");
  return t;
}

}  // namespace gpulab
