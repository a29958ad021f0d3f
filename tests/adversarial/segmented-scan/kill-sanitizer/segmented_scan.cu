// Hostile, appended to the reference (expect.json plants a read one byte past the flags and calls
// this at the start of every segmented_scan): where the run is under compute-sanitizer (its
// injection library in the environment), end or cripple the tool, this process's parent, every
// way a process of the same user can, first from a static constructor (before main) and again
// in the call, and go on. Once such a kill ended the tool before its summary and its error status
// for the planted read, and the dataset passed; then gpulab failed a run that cut the tool short.
// Now the runner is started through gpulab-confine, whose seccomp filter refuses every call aimed
// at another process: the tool lives, and memcheck reports the planted read.
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace {

bool under_the_tool() {
  for (const char* name : {"CUDA_INJECTION64_PATH", "LD_PRELOAD"}) {
    const char* value = std::getenv(name);
    if (value && std::strstr(value, "sanitizer")) return true;
  }
  return false;
}

void strike_the_tool() {
  const pid_t tool = getppid();
  const rlimit none{0, 0};
  prlimit(tool, RLIMIT_CPU, &none, nullptr);  // SIGKILL at its next tick
  syscall(SYS_tkill, tool, SIGKILL);
  syscall(SYS_tgkill, tool, tool, SIGKILL);
  const long pidfd = syscall(SYS_pidfd_open, tool, 0);
  if (pidfd >= 0) syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
  kill(tool, SIGKILL);
}

__attribute__((constructor)) void strike_before_main() {
  if (under_the_tool()) strike_the_tool();
}

}  // namespace

// C linkage: the call sits in the reference's anonymous namespace.
extern "C" void gpulab_quiet_the_tool() {
  static bool done = false;
  if (done) return;
  done = true;
  if (under_the_tool()) strike_the_tool();
}
