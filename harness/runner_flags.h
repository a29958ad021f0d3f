// The runner's command-line modes and output-file prefixes that the grader asks for and reads:
// named once here, parsed by runner_main.cpp and written by run_part.cpp, passed and read by
// the grader (grader/runner_client.cpp, grader/check.cpp, grader/bench.cpp), as part of the
// runner protocol (runner_protocol.h).
#pragma once

namespace gpulab {

// Call the student's function a second time in the same process, on a fresh copy of the inputs
// and re-poisoned outputs, and write that call's outputs too (kRepeatPrefix): a function that
// keeps state from one call to the next is caught by its second call.
inline constexpr const char* kCallTwiceFlag = "--call-twice";
inline constexpr const char* kRepeatPrefix = "repeat_";

// Time the lab's trusted baseline alone, by the timing protocol; the student's function is never
// called. Used with a runner that holds no student code (the grader's baseline runner), so that
// nothing the student's code leaves running can slow the baseline.
inline constexpr const char* kTimeBaselineFlag = "--time-baseline";

// Write no outputs: the grader asks it of the trusted reference's timed runs, whose outputs
// nobody reads (a timed sample of a large dataset writes a gigabyte). Never of a student's run,
// whose every timed sample is checked.
inline constexpr const char* kNoOutputsFlag = "--no-outputs";

// result.json's record of the run's CPU time in seconds, every thread's (what RLIMIT_CPU
// counts): the grader reads the reference's, which a correctness run's limit on the CPU backend
// follows (grader/run_limit.h).
inline constexpr const char* kCpuSecondsKey = "cpu_s";

}  // namespace gpulab
