// gpulab-confine PROGRAM [ARG]...: becomes PROGRAM under seccomp_filter.h's confined_run_filter.
// compute-sanitizer starts the student's runner through it (sanitizer_runs.cpp), so the runner,
// from its first instruction on (static constructors included), can neither start a process
// nor signal, trace or limit the tool that watches it. A filter survives execve.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "os/seccomp_filter.h"

namespace {

// Exit statuses of its own, apart from any a runner gives (harness/runner_protocol.h).
constexpr int kUsage = 2;
constexpr int kNotConfined = 125;
constexpr int kNotStarted = 127;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: gpulab-confine PROGRAM [ARG]...\n";
    return kUsage;
  }
  if (!gpulab::confine_this_process()) {
    std::cerr << "gpulab-confine: cannot load the seccomp filter: " << std::strerror(errno) << "\n";
    return kNotConfined;
  }
  execv(argv[1], argv + 1);
  std::cerr << "gpulab-confine: cannot start " << argv[1] << ": " << std::strerror(errno) << "\n";
  return kNotStarted;
}
