// The channel between a runner and the grader: one Unix socket of type SOCK_SEQPACKET that the
// grader makes and hands the runner as descriptor kChannelFd. Everything the grader takes from a
// run comes through it, sent by trusted code (the harness) at the moment it is final: nothing is
// read from a name in the run's folder, which the student's code could have made a link, a FIFO
// or a device, and nothing can be changed once sent.
//
// A message is one JSON object, at most kChannelMessageMax bytes, with at most kChannelFdsMax
// descriptors (SCM_RIGHTS). Runner -> grader:
//   {"output": NAME}          + 1 descriptor: the .npy file of output NAME, a memory file sealed
//                               against every change (memfd: F_SEAL_WRITE, _GROW, _SHRINK, _SEAL)
//   {"ask": k}                the inputs of timed sample k, please (sample_protocol.h)
//   {"done": k, "ms": T, "cpu_ms": C}
//                             sample k's outputs are sent; T is its time as the harness measured
//                             it, C the process's CPU time during the call
//   {"record": {...}}         the run's record (kRecord*), the last message of a run
// Grader -> runner, answering "ask" and "done" only:
//   {"sample": k}             sample k's inputs are in the samples folder, under k/
//   {"ok": k}                 sample k is received
//   {"error": WHY}            the run has failed; WHY says how
// Every name is sent once and samples go in order (the run's own outputs, then ask k, its
// outputs, done k, ask k + 1; grader/run/run_channel.h holds each output to its turn):
// anything else fails the run. The grader's clock, outside the run's process, runs from its
// answer to "ask" k to its receipt of "done" k (docs/GRADING.md, "The trust boundary").
#pragma once

#include <cstddef>

namespace gpulab {

// Clear of stdin, stdout and stderr, of the CPU backend's report (5) and of the sandbox's
// seccomp program (10).
constexpr int kChannelFd = 3;
constexpr size_t kChannelMessageMax = size_t{64} << 10;
constexpr int kChannelFdsMax = 4;

// Message keys, as above.
inline constexpr const char* kMsgOutput = "output";
inline constexpr const char* kMsgAsk = "ask";
inline constexpr const char* kMsgDone = "done";
inline constexpr const char* kMsgDoneMs = "ms";
inline constexpr const char* kMsgDoneCpuMs = "cpu_ms";
inline constexpr const char* kMsgRecord = "record";
inline constexpr const char* kMsgSample = "sample";
inline constexpr const char* kMsgOk = "ok";
inline constexpr const char* kMsgError = "error";

}  // namespace gpulab
