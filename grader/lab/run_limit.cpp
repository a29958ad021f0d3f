#include "lab/run_limit.h"

#include <signal.h>

#include <algorithm>
#include <cmath>

#include "text/number_text.h"

namespace gpulab {

RunLimit RunLimit::clock(double wall_s, std::string why) {
  // Two busy threads for the whole time, and a margin: the clock decides, not the CPU.
  return {wall_s, 2 * wall_s + 10, std::move(why), false};
}

bool RunLimit::stopped(const ProcessResult& p) const {
  return p.timed_out || p.signal == SIGXCPU;
}

std::string RunLimit::describe(const ProcessResult& p) const {
  if (!stopped(p)) return p.describe();
  // SIGXCPU comes when its CPU time reaches the limit (RLIMIT_CPU's soft limit).
  const std::string clock = printf_text("%.0f", p.wall_s) + " s on the clock";
  const std::string after =
      p.timed_out ? clock : printf_text("%.0f", cpu_s) + " s of CPU time, " + clock;
  return "did not finish within the time limit (killed after " + after +
         (why.empty() ? "" : ": " + why) + ")";
}

RunLimit correctness_limit(Backend backend, std::optional<double> given_s,
                           std::optional<double> reference_cpu_s, bool reference_exists,
                           const SimTimeLimit& rule) {
  if (given_s)
    return RunLimit::clock(
        *given_s, "the limit is " + printf_text("%g", *given_s) + " s on the clock (--timeout)");
  if (backend != Backend::sim)
    return RunLimit::clock(
        kGpuRunLimitS, "the limit is " + printf_text("%.0f", kGpuRunLimitS) + " s on the clock");
  const double by_reference = reference_cpu_s ? rule.over_reference * *reference_cpu_s : 0;
  RunLimit limit;
  // Whole seconds: RLIMIT_CPU counts in them.
  limit.cpu_s = std::ceil(std::max(rule.floor_s, by_reference));
  limit.wall_s = kSimClockOverCpu * limit.cpu_s;
  const std::string cpu = printf_text("%.0f", limit.cpu_s) + " s of CPU time";
  const std::string clock = printf_text("%.0f", limit.wall_s) + " s on the clock";
  const auto times_reference = [&] {
    return printf_text("%g", rule.over_reference) + "x the reference's " +
           printf_text("%.3g", *reference_cpu_s) + " s";
  };
  const std::string is = "the limit on the CPU backend is ";
  if (by_reference > rule.floor_s) {
    limit.why = is + times_reference() + " of CPU time on this dataset: " + cpu + ", " + clock;
  } else if (reference_cpu_s) {
    limit.why =
        is + "its least, " + cpu + " (" + times_reference() + " on this dataset is less), " + clock;
  } else if (reference_exists) {
    limit.why = is + "at least " + cpu + ", " + clock +
                ", and the reference's time on this dataset is not measured yet";
    limit.awaits_reference = true;
  } else {
    limit.why = is + "its least, " + cpu + ", " + clock +
                " (there is no reference solution here to scale it by)";
  }
  return limit;
}

}  // namespace gpulab
