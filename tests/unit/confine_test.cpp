// What a runner under compute-sanitizer may do to the tool that watches it: nothing
// (grader/os/seccomp_filter.h's confined_run_filter, loaded by gpulab-confine before it becomes
// the runner). The tool is its parent and of its user, so without the filter one kill() from
// an exit handler ended the tool before its summary (tests/adversarial/segmented-scan/
// kill-sanitizer).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>

#include "files/paths.h"
#include "os/process.h"
#include "os/seccomp_filter.h"
#include "test_util.h"

namespace {

// A process to aim at: it waits to be killed.
pid_t start_victim() {
  const pid_t victim = fork();
  if (victim == 0) {
    for (;;) pause();
  }
  return victim;
}

bool refused(long result) {
  return result == -1 && errno == EPERM;
}

volatile sig_atomic_t own_signal = 0;

// Runs in the confined child: the number of the first check that failed, 0 where none did.
int confined_checks(pid_t victim) {
  if (!gpulab::confine_this_process()) return 100;
  int n = 0;
  // Another process, by every call that names one: refused.
  if (++n, !refused(kill(victim, SIGKILL))) return n;
  if (++n, !refused(kill(getppid(), 0))) return n;
  if (++n, !refused(kill(0, 0))) return n;  // the process group: the tool is in it
  if (++n, !refused(kill(-1, 0))) return n;
  if (++n, !refused(syscall(SYS_tgkill, victim, victim, 0))) return n;
  if (++n, !refused(syscall(SYS_tkill, victim, 0))) return n;
  siginfo_t info{};
  info.si_code = SI_QUEUE;
  if (++n, !refused(syscall(SYS_rt_sigqueueinfo, victim, 0, &info))) return n;
  if (++n, !refused(syscall(SYS_pidfd_open, victim, 0))) return n;
  rlimit limit{};
  if (++n, !refused(prlimit(victim, RLIMIT_CPU, nullptr, &limit))) return n;
  if (++n, !refused(ptrace(PTRACE_ATTACH, victim, nullptr, nullptr))) return n;
  // Itself: allowed, as the C library's raise and a student's own limits need.
  if (++n, kill(getpid(), 0) != 0) return n;
  if (++n, prlimit(0, RLIMIT_NOFILE, nullptr, &limit) != 0) return n;
  if (++n, prlimit(getpid(), RLIMIT_NOFILE, nullptr, &limit) != 0) return n;
  signal(SIGUSR1, [](int) { own_signal = 1; });
  if (++n, raise(SIGUSR1) != 0 || !own_signal) return n;
  // Threads: allowed.
  bool ran = false;
  std::thread([&ran] { ran = true; }).join();
  if (++n, !ran) return n;
  return 0;
}

TEST_CASE("a confined process cannot signal, trace or limit another; it may itself") {
  const pid_t victim = start_victim();
  REQUIRE(victim > 0);
  const pid_t child = fork();
  if (child == 0) _exit(confined_checks(victim));
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK_MESSAGE(WIFEXITED(status), "the confined child ended by signal " << WTERMSIG(status));
  CHECK_MESSAGE(WEXITSTATUS(status) == 0, "check " << WEXITSTATUS(status) << " failed");
  CHECK_MESSAGE(kill(victim, 0) == 0, "the confined child killed another process");
  kill(victim, SIGKILL);
  waitpid(victim, nullptr, 0);
}

TEST_CASE("a confined process that starts another is ended by SIGSYS") {
  const pid_t child = fork();
  if (child == 0) {
    if (!gpulab::confine_this_process()) _exit(100);
    const pid_t grandchild = fork();
    if (grandchild == 0) _exit(0);
    _exit(101);  // fork returned: the filter let it through
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGSYS);
}

TEST_CASE("gpulab-confine becomes its program: the same arguments and exit status") {
  const std::string confine = gpulab::Paths::current().confine().string();
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  po.argv = {confine, "/bin/sh", "-c", "echo \"$0 $1\"; exit 7", "zero", "one"};
  const gpulab::ProcessResult r = gpulab::run_process(po);
  CHECK(r.exit_code == 7);
  CHECK(test::contains(r.output, "zero one"));
  // /bin/kill, confined, cannot reach another process.
  const pid_t victim = start_victim();
  REQUIRE(victim > 0);
  po.argv = {confine, "/bin/kill", "-s", "KILL", std::to_string(victim)};
  const gpulab::ProcessResult k = gpulab::run_process(po);
  CHECK(k.exit_code != 0);
  CHECK(kill(victim, 0) == 0);
  kill(victim, SIGKILL);
  waitpid(victim, nullptr, 0);
  po.argv = {confine};
  CHECK(test::contains(gpulab::run_process(po).output, "usage: gpulab-confine"));
  po.argv = {confine, "/nonexistent/runner"};
  const gpulab::ProcessResult missing = gpulab::run_process(po);
  CHECK(missing.exit_code == 127);
  CHECK(test::contains(missing.output, "cannot start /nonexistent/runner"));
}

}  // namespace
