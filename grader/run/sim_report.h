// The CPU backend's report of a graded run, as the grader receives it: JSON lines on a pipe
// the runtime was given at start (sim/README.md, "What is reported"). The run is the student's
// program, and its code can write to that pipe as the runtime does, so the report is read as
// the work of an adversary that can add lines and cut the stream short, but cannot take back
// what was already sent, nor know the key the grader handed the runtime:
//  - a cost record, {"cost":{...}} (sent at exit with GPULAB_SIM_PROFILE=1: sim/README.md, "The
//    cost model"), is kept apart, as it came: a forged one can only mislead its own program's
//    cost table, which scores nothing.
//  - a call's mark, {"call":k} (a batch's call on its dataset k begins: sim/README.md; -1: the
//    calls are over): the runtime sends each finding again the first time a call makes it, and
//    each finding lists in "calls" every call it was received in (correctness_batch.h). A forged
//    mark can only move a finding to other datasets of its own run, each of which it fails.
//  - a finding is any other line that parses as a JSON object but the end record. One sent
//    twice (when made, and with its final count at exit) is one finding, with the larger count;
//    lines differing in anything but their count are two findings. A forged finding can only
//    count against the run that wrote it.
//  - the end record, {"end":{"launches":N,"records":M,"key":K}}, must be the last line, carry the
//    grader's key, and follow exactly M findings lines. A run that finished must have one:
//    without it, or with any of that wrong, the report was cut off, replaced or forged, and the
//    run fails with a message that says so.
// This module is pure: the bytes in, findings and the problem out. grader/run/runner_client.cpp
// runs it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend_hooks.h"

namespace gpulab {

// The pipe's number in a sim run, beside sample_protocol.h's (3, 4) and the sandbox's seccomp
// program (10).
constexpr int kSimReportFd = 5;
// What the grader keeps of one run's report: far above the labs' (a record per finding site).
constexpr size_t kSimReportLimit = size_t{4} << 20;
// The field of each finding that lists the calls (a batch's datasets) that made it; the mark's
// own is backend_hooks.h's kCallMarkKey.
constexpr const char* kSimCallsKey = "calls";

struct SimReport {
  std::vector<nlohmann::json> findings;  // in the order first received
  std::vector<nlohmann::json> costs;     // each cost record's object, in order
  long launches = -1;                    // from the end record; -1 without one
  // Empty when the report is whole; else, for the student, what is wrong with it.
  std::string problem;
};

// `bytes` as received; `key` the one the grader gave the run; `truncated` when more came than
// was kept; `finished` when the run exited normally and said it ran (an end record is then
// required: without `finished` the run failed anyway and its findings are read as they are).
SimReport read_sim_report(const std::string& bytes, const std::string& key, bool truncated,
                          bool finished);

}  // namespace gpulab
