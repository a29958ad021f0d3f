#include "run/outside_clock.h"

#include <algorithm>

#include "stats.h"

namespace gpulab {

OutsideChecked outside_checked(bool gpu_part, const std::vector<SampleClock>& student,
                               const std::vector<SampleClock>& reference) {
  std::vector<double> inside, beyond_share, excess, share;
  for (size_t k = 0; k < student.size(); ++k) {
    inside.push_back(student[k].inside_ms);
    if (k >= reference.size()) continue;
    const SampleClock &s = student[k], &r = reference[k];
    const double window = gpu_part ? s.outside_wall_ms : s.outside_cpu_ms;
    const double harness = std::max(
        0.0, gpu_part ? r.outside_wall_ms - r.inside_ms : r.outside_cpu_ms - r.inside_cpu_ms);
    share.push_back(harness);
    beyond_share.push_back(window - harness);
    excess.push_back(window - harness - s.inside_ms);
  }
  OutsideChecked c;
  c.ms = median(inside);
  if (beyond_share.empty()) return c;
  c.bound_ms = median(beyond_share) -
               (kShareNoise * median(share) + (gpu_part ? kWallSlackMs : kCpuSlackMs));
  c.excess_ms = median(excess);
  c.share_ms = median(share);
  c.contradicted = c.bound_ms > c.ms;
  c.ms = std::max(c.ms, c.bound_ms);
  return c;
}

}  // namespace gpulab
