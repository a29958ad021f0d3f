// The runner protocol: how the grader's runner client (grader/run/runner_client.h: gpulab grade and
// gpulab bench) and a runner (runner_main.cpp) talk. One runner process grades one part on one
// dataset:
//
//   runner --part NAME --dataset DIR [modes of runner_flags.h] [--timing JSON]
//
// It hands its outputs (.npy) and its record to the grader over the grader's channel
// (channel_protocol.h), and exits with one of the codes below; the record's "status" goes with
// the code. The modes --call-twice, --time-baseline and --under-tool and the record's CPU time
// are in runner_flags.h, a graded timed run's samples (--samples, --samples-dir) in
// sample_protocol.h, the channel's messages in channel_protocol.h: all are included here, so
// this header is the whole protocol.
#pragma once

#include "channel_protocol.h"
#include "runner_flags.h"
#include "sample_protocol.h"

namespace gpulab {

// X(name, exit code, result.json's "status", meaning)
#define GPULAB_RUNNER_EXITS(X)                                                             \
  X(ok, 0, "ok", "the part ran")                                                           \
  X(usage, 2, "usage",                                                                     \
    "the command line was wrong: the grader's mistake (status \"usage\" where the record " \
    "could be written)")                                                                   \
  X(failed, 3, "error", "the part failed; the record's \"message\" says why")              \
  X(no_gpu, 4, "no-gpu", "the part needs a GPU and this machine has none")

enum class RunnerExit : int {
#define GPULAB_RUNNER_EXIT_ENUM(name, code, status, meaning) name = code,
  GPULAB_RUNNER_EXITS(GPULAB_RUNNER_EXIT_ENUM)
#undef GPULAB_RUNNER_EXIT_ENUM
};

// The exit code as main returns it.
constexpr int exit_code(RunnerExit e) {
  return static_cast<int>(e);
}

// The record's "status" that goes with an exit.
constexpr const char* runner_status(RunnerExit e) {
  switch (e) {
#define GPULAB_RUNNER_EXIT_STATUS(name, code, status, meaning) \
  case RunnerExit::name:                                       \
    return status;
    GPULAB_RUNNER_EXITS(GPULAB_RUNNER_EXIT_STATUS)
#undef GPULAB_RUNNER_EXIT_STATUS
  }
  return "";
}

// The record a runner sends last (channel_protocol.h's "record"), a JSON object, its fields as
// X(key, JSON type): each has one type, and the grader fails a run whose record has a field of
// another (grader/run/run_channel.h). "outputs" are the names handed over; a timing (TimingResult's
// JSON) holds "median_ms", "rel_se" and "samples_ms"; "baseline" (a --time-baseline run) holds
// the baseline's "name" and "timing".
#define GPULAB_RECORD_FIELDS(X) \
  X("status", string)           \
  X("message", string)          \
  X("part", string)             \
  X("dataset", string)          \
  X("work", number)             \
  X(kCpuSecondsKey, number)     \
  X("outputs", array)           \
  X("timing", object)           \
  X("baseline", object)         \
  X("device", object)

// The options every run passes.
inline constexpr const char* kPartOption = "--part";
inline constexpr const char* kDatasetOption = "--dataset";
// Time the student's function by the timing protocol (harness/timing.h), with the policy of
// kTimingOption (JSON).
inline constexpr const char* kTimeFlag = "--time";
inline constexpr const char* kTimingOption = "--timing";
// List the runner's parts, one a line: its name and "gpu" or "cpu". With kJsonFlag after it, a
// JSON array of {"name", "device"} instead, which tests check against lab.json's parts.
inline constexpr const char* kListFlag = "--list";
inline constexpr const char* kJsonFlag = "--json";

}  // namespace gpulab
