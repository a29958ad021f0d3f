// What the grader makes of its own clock outside a run's process (run_channel.h). A timed
// sample's time is measured inside the run, where the student's code runs too; the grader also
// measures, from outside, the whole window in which the work of that sample can have been done:
// from handing over its inputs to receiving its outputs. That window holds the harness's own
// work too (loading the inputs, poisoning and capturing the outputs), which the reference's run
// on the same sample measures: its window less its own inside time is the harness's share.
//
// So a student's sample may not have taken less than its window less the reference's share
// (with room for noise): an inside time below that is contradicted by the outside clock, and the
// sample counts at the outside bound instead. Work done before the clock started, after it
// stopped, in another thread or by code that rewrote the harness's record, all lands in the
// window, and so in the bound. On a GPU part the window is wall time (the GPU works while the
// CPU sleeps); on a CPU part it is the CPU time of the run's whole process tree, which another
// program on the machine does not inflate, compared with the reference's CPU time.
#pragma once

#include "run_channel.h"

namespace gpulab {

// The room left for noise in the harness's share: the reference's share times this, plus a
// constant (milliseconds). What a submission that forges its inside time can still gain is this
// room, no more (docs/GRADING.md, "The trust boundary"); docs/PERF.md records how far honest
// runs' windows exceed the reference's share.
constexpr double kHarnessShareOver = 1.1;
constexpr double kHarnessShareSlackMs = 1;

struct OutsideChecked {
  double ms = 0;              // what the sample counts: its inside time, or the outside bound
  double bound_ms = 0;        // the outside bound
  bool contradicted = false;  // the bound was above the inside time
  // How much longer the window was than the reference's share and the inside time together:
  // about 0 for an honest run, the work done off the clock for one that forged its time.
  double excess_ms = 0;
};

// The student's sample `student`, held to the reference's `reference` on the same sample.
OutsideChecked outside_checked(bool gpu_part, const SampleClock& student,
                               const SampleClock& reference);

}  // namespace gpulab
