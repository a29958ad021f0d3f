// gpulab's exit statuses, for the scripts and course platforms that run it. Defined here once,
// as one list (name, code, the line `gpulab --help` shows); docs/GRADING.md explains them.
//  - kExitOk: grade and run: graded, the report holds a score; grade-all: every submission
//    graded.
//  - kExitFailed: grade and run: the grader itself failed, or could not grade here (grade: a
//    GPU part and no usable GPU), its report says why, without a score; grade-all: the grader
//    failed on some submissions, or it refused to grade (no usable GPU); any other command: it
//    failed (gpulab says why).
//  - kExitTestsFailed: run: graded, and some test worth points did not pass (the terminal shows
//    why). grade exits 0 whatever the score: the platforms that run it read the report. time: a
//    timed run failed or its outputs were wrong (a wrong run gives no time), or the code did not
//    build.
//  - kExitStopped: stopped by SIGTERM or SIGINT (stop_signals.h): grade and run wrote a report
//    without a score that says so; grade-all left the submissions it had not finished to be
//    graded on its next run; datasets removed the dataset it was making. Not 128 + the signal,
//    which a shell reports for a process the signal killed.
//  - kExitNeedsGpu: time (bench too): what was asked needs an NVIDIA GPU, or a gpulab built for
//    one (nvcc), and this machine has none usable; gpulab says so, and times whatever else was
//    asked (CPU parts).
//  - kExitUsage: the command line was not understood (an unknown command or option, a value
//    out of range, a required one missing); gpulab says what, and runs nothing.
#pragma once

#define GPULAB_EXIT_STATUSES(X)                                                   \
  X(kExitOk, 0, "done (grade: graded, whatever the score)")                       \
  X(kExitFailed, 1, "gpulab failed; it says why")                                 \
  X(kExitTestsFailed, 2, "run or time: a test failed, or the code did not build") \
  X(kExitStopped, 3, "stopped by SIGTERM or SIGINT; the report says so")          \
  X(kExitNeedsGpu, 4, "time or bench: a GPU was needed and none is usable here")  \
  X(kExitUsage, 5, "the command line was not understood; gpulab says what")

namespace gpulab {

#define GPULAB_EXIT_CONSTANT(name, code, meaning) constexpr int name = code;
GPULAB_EXIT_STATUSES(GPULAB_EXIT_CONSTANT)
#undef GPULAB_EXIT_CONSTANT

}  // namespace gpulab
