// What the grader makes of its own clock outside a run's process (run_channel.h). A timed
// sample's time is measured inside the run, where the student's code runs too; the grader also
// measures, from outside, the whole window in which the work of that sample can have been done:
// from handing over its inputs to receiving its outputs. That window holds the harness's own
// work too (loading the inputs, poisoning and capturing the outputs), which the reference's run
// on the same sample measures: its window less its own inside time is the harness's share.
//
// So a timed run (its samples) may not have taken less than its windows less the reference's
// shares, the median over its samples, with room for noise: a run whose inside times are below
// that is contradicted by the outside clock and counts at the outside bound instead. Work done
// before the clock started, after it stopped, in another thread or by code that rewrote the
// harness's clocks or record, all lands in the windows, and so in the bound. On a GPU part the
// window is wall time (the GPU works while the CPU sleeps); on a CPU part it is the CPU time of
// the run's whole process tree, which another program on the machine does not inflate, compared
// with the reference's CPU time. Medians, because one sample's window can take a few
// milliseconds more for reasons of the machine's (docs/PERF.md): an honest run is not held to
// one slow sample.
#pragma once

#include <vector>

#include "run/run_channel.h"

namespace gpulab {

// The room left for noise: the reference's median share times this, plus a constant
// (milliseconds) by the clock the window is read on. What a submission that forges its inside
// times can still gain is this room, no more (docs/GRADING.md, "The trust boundary").
constexpr double kShareNoise = 0.25;
constexpr double kWallSlackMs = 5;
constexpr double kCpuSlackMs = 2;

struct OutsideChecked {
  double ms = 0;              // what the run counts: its median inside time, or the outside bound
  double bound_ms = 0;        // the outside bound
  bool contradicted = false;  // the bound was above the median inside time
  // The median over the samples of how much longer each window was than the reference's share
  // and the inside time together: about 0 for an honest run, the work done off the clock for
  // one that forged its times.
  double excess_ms = 0;
  // The median over the samples of the reference's share: the harness's own work in a sample's
  // window (loading its inputs, poisoning and handing over its outputs), what a timed sample
  // costs beyond the call itself (docs/PERF.md).
  double share_ms = 0;
};

// The student's timed run `student` (one SampleClock per sample), held to the reference's run
// `reference` on the same samples; the reference's may be empty (none timed here, the student
// kit): then the inside times count as they are.
OutsideChecked outside_checked(bool gpu_part, const std::vector<SampleClock>& student,
                               const std::vector<SampleClock>& reference);

}  // namespace gpulab
