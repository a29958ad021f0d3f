// The runner's command-line modes and output-name prefixes that the grader asks for and reads:
// named once here, parsed by runner_main.cpp and sent by run_part.cpp, passed and read by the
// grader (grader/run/runner_client.cpp, grader/data/check.cpp, grader/bench/bench.cpp), as part of
// the runner protocol (runner_protocol.h).
#pragma once

namespace gpulab {

// Call the student's function a second time in the same process, on a fresh copy of the inputs
// and re-poisoned outputs, and hand over that call's outputs too (kRepeatPrefix): a function that
// keeps state from one call to the next is caught by its second call.
inline constexpr const char* kCallTwiceFlag = "--call-twice";
inline constexpr const char* kRepeatPrefix = "repeat_";

// Time the lab's trusted baseline alone, by the timing protocol; the student's function is never
// called. Used with a runner that holds no student code (the grader's baseline runner), so that
// nothing the student's code leaves running can slow the baseline.
inline constexpr const char* kTimeBaselineFlag = "--time-baseline";

// A timed run of the lab's own reference, which is trusted: its calls' inputs are not checked
// afterwards. That check is for a student's code, and it comes after each sample's "done", outside
// every window of the grader's outside clock, so the reference's share of a window is the same
// without it (grader/run/outside_clock.h): a gigabyte's input costs a copy back and a comparison a
// sample. Never asked of a student's run.
inline constexpr const char* kReferenceFlag = "--reference";

// The run is under a checking tool (compute-sanitizer) that starts threads of its own whenever
// it likes: the threads a call leaves are not checked (student_call.h). Such runs only look for
// the tool's findings; their outputs and times never count. A grade's run under a tool takes the
// other datasets it checks as samples, untimed, other parts' too (sample_protocol.h,
// kSamplePartsOption; grader/grade/sanitizer_runs.h).
inline constexpr const char* kUnderToolFlag = "--under-tool";

// The record's CPU time of the run in seconds, every thread's (what RLIMIT_CPU counts): the
// grader reads the reference's, which a correctness run's limit on the CPU backend follows
// (grader/lab/run_limit.h).
inline constexpr const char* kCpuSecondsKey = "cpu_s";

}  // namespace gpulab
