// How far the memory of some work peaks: for the tests of readers that must stay within a
// budget whatever a run wrote (grader/run/run_json.h).
#pragma once

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>

namespace test {

// A "Vm...:" line of /proc/self/status, in bytes; -1 without it.
inline long long vm_status_bytes(const char* field) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  long long kib = -1;
  char line[256];
  const size_t n = strlen(field);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, n) == 0) kib = atoll(line + n);
  fclose(f);
  return kib < 0 ? -1 : kib * 1024;
}

// The growth of the peak resident memory (VmHWM) while `work` runs, in bytes; -1 where it
// cannot be measured. It runs in a child process (fork), which first gives back what this
// process had freed (malloc_trim) and resets its peak to what it holds now
// (/proc/self/clear_refs), so that neither what is held nor what earlier tests freed hides a
// peak. Its address space is capped at `cap` bytes beyond what it holds, so that work that
// would take far more fails there (an allocation that fails is counted at the cap) rather than
// take the machine's memory, and its time at `seconds`, past which it is killed (-1).
inline long long peak_growth_bytes(const std::function<void()>& work, long long cap,
                                   unsigned seconds = 20) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(pipe_fds[0]);
    alarm(seconds);
    long long growth = -1;
    malloc_trim(0);
    FILE* clear = fopen("/proc/self/clear_refs", "w");
    const bool reset = clear && fputs("5", clear) >= 0 && fclose(clear) == 0;
    const long long before = vm_status_bytes("VmHWM:");
    const rlimit space = {static_cast<rlim_t>(vm_status_bytes("VmSize:") + cap),
                          static_cast<rlim_t>(vm_status_bytes("VmSize:") + cap)};
    if (reset && before > 0 && setrlimit(RLIMIT_AS, &space) == 0) {
      try {
        work();
        growth = vm_status_bytes("VmHWM:") - before;
      } catch (const std::bad_alloc&) {
        growth = cap;
      } catch (...) {
      }
    }
    const bool sent = write(pipe_fds[1], &growth, sizeof growth) == sizeof growth;
    _exit(sent ? 0 : 1);
  }
  close(pipe_fds[1]);
  long long growth = -1;
  if (read(pipe_fds[0], &growth, sizeof growth) != sizeof growth) growth = -1;
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return growth;
}

}  // namespace test
