#include "outside_clock.h"

#include <algorithm>

namespace gpulab {

OutsideChecked outside_checked(bool gpu_part, const SampleClock& student,
                               const SampleClock& reference) {
  const double window = gpu_part ? student.outside_wall_ms : student.outside_cpu_ms;
  const double share = gpu_part ? reference.outside_wall_ms - reference.inside_ms
                                : reference.outside_cpu_ms - reference.inside_cpu_ms;
  OutsideChecked c;
  c.bound_ms = window - (std::max(0.0, share) * kHarnessShareOver + kHarnessShareSlackMs);
  c.contradicted = c.bound_ms > student.inside_ms;
  c.ms = std::max(student.inside_ms, c.bound_ms);
  c.excess_ms = window - std::max(0.0, share) - student.inside_ms;
  return c;
}

}  // namespace gpulab
