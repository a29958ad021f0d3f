// gpulab's exit statuses, for the scripts and course platforms that run it. Defined here once;
// docs/GRADING.md lists them.
#pragma once

namespace gpulab {

// grade and run: graded, the report holds a score; grade-all: every submission graded.
constexpr int kExitOk = 0;
// grade and run: the grader itself failed, its report says why, without a score; grade-all:
// the grader failed on some submissions; any other command: it failed (gpulab says why).
constexpr int kExitFailed = 1;
// run: graded, and some test worth points did not pass (the terminal shows why). grade exits 0
// whatever the score: the platforms that run it read the report. time: a timed run failed or
// its outputs were wrong (a wrong run gives no time), or the code did not build.
constexpr int kExitTestsFailed = 2;
// Stopped by SIGTERM or SIGINT (stop_signals.h): grade and run wrote a report without a score
// that says so; grade-all left the submissions it had not finished to be graded on its next
// run; datasets removed the dataset it was making. Not 128 + the signal, which a shell reports for
// a process the signal killed.
constexpr int kExitStopped = 3;
// time (bench too): what was asked needs an NVIDIA GPU, or a gpulab built for one (nvcc), and
// this machine has none usable; gpulab says so, and times whatever else was asked (CPU parts).
constexpr int kExitNeedsGpu = 4;

}  // namespace gpulab
