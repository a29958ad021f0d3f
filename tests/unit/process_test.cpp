// grader/os/process.h: running an untrusted child with captured output, a timeout that kills its
// whole process group, an output bound and resource limits.
#include "os/process.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "os/seccomp_filter.h"
#include "test_util.h"
#include "text/safe_text.h"

namespace {

using gpulab::ProcessOptions;
using gpulab::ProcessResult;
using test::contains;
using Clock = std::chrono::steady_clock;

ProcessOptions shell(const std::string& script, double timeout_s = 10) {
  ProcessOptions o;
  o.argv = {"/bin/sh", "-c", script};
  o.timeout_s = timeout_s;
  return o;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// True once `pid` is gone or a zombie: the grader's kill reached it. A zombie waits for its
// new parent to reap it, so this polls for a while rather than asking once.
bool process_dead(pid_t pid) {
  const auto t0 = Clock::now();
  const auto stat = std::filesystem::path("/proc") / std::to_string(pid) / "stat";
  while (seconds_since(t0) < 3) {
    std::string s;
    try {
      s = test::read_file(stat);
    } catch (const std::exception&) {
      return true;  // no such process any more
    }
    const size_t paren = s.rfind(')');  // "pid (comm) S ..."
    if (paren != std::string::npos && paren + 2 < s.size() && s[paren + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace

TEST_CASE("run_process captures stdout and stderr") {
  const ProcessResult r = gpulab::run_process(shell("echo to-stdout; echo to-stderr >&2"));
  CHECK(r.ok());
  CHECK(r.exit_code == 0);
  CHECK(r.signal == 0);
  CHECK(contains(r.output, "to-stdout\n"));
  CHECK(contains(r.output, "to-stderr\n"));
  CHECK(r.output_bytes == r.output.size());
  CHECK_FALSE(r.output_truncated);
}

TEST_CASE("run_process runs in the requested directory") {
  test::TempDir tmp;
  ProcessOptions o = shell("pwd -P");
  o.cwd = tmp.path();
  const ProcessResult r = gpulab::run_process(o);
  CHECK(r.ok());
  CHECK(r.output == std::filesystem::canonical(tmp.path()).string() + "\n");
}

TEST_CASE("run_process reports the exit status") {
  const ProcessResult r = gpulab::run_process(shell("echo partial; exit 3"));
  CHECK_FALSE(r.ok());
  CHECK(r.exit_code == 3);
  CHECK(r.signal == 0);
  CHECK_FALSE(r.timed_out);
  CHECK(r.output == "partial\n");
  CHECK(contains(r.describe(), "exited with status 3"));
}

TEST_CASE("run_process reports the signal that ended the child") {
  const ProcessResult r = gpulab::run_process(shell("kill -SEGV $$"));
  CHECK_FALSE(r.ok());
  CHECK(r.signal == SIGSEGV);
  CHECK_FALSE(r.timed_out);
  INFO(r.describe());
  CHECK(contains(r.describe(), "signal 11"));
  CHECK(contains(r.describe(), "segmentation fault"));
}

TEST_CASE("run_process kills a child that outlives its timeout") {
  const auto t0 = Clock::now();
  ProcessOptions o;
  o.argv = {"sleep", "30"};
  o.timeout_s = 0.5;
  const ProcessResult r = gpulab::run_process(o);
  const double elapsed = seconds_since(t0);
  CHECK(r.timed_out);
  CHECK_FALSE(r.ok());
  CHECK(elapsed >= 0.45);
  CHECK(elapsed < 1.5);
  CHECK(r.wall_s < 1.5);
  CHECK(contains(r.describe(), "time limit"));
}

TEST_CASE("a moving time limit is read as the child runs: moved on, it lets the child live") {
  // The limit starts at 0.5 s; moved to 20 s at 0.2 s, it lets a 1 s child end well. Left
  // alone, it stops the same child at 0.5 s.
  std::atomic<double> limit_s{0.5};
  ProcessOptions o;
  o.argv = {"sleep", "1"};
  o.timeout_s = 0.5;
  o.moving_timeout_s = &limit_s;
  std::thread mover([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    limit_s = 20;
  });
  const ProcessResult moved = gpulab::run_process(o);
  mover.join();
  CHECK_MESSAGE(moved.ok(), moved.describe());
  limit_s = 0.5;
  const auto t0 = Clock::now();
  const ProcessResult stopped = gpulab::run_process(o);
  CHECK(stopped.timed_out);
  CHECK(seconds_since(t0) < 0.95);
}

TEST_CASE("run_process kills the child's whole process group on timeout") {
  // The shell waits for a background sleep that holds the output pipe open: returning quickly
  // needs both to die, and the grandchild must not survive the grader.
  const auto t0 = Clock::now();
  const ProcessResult r = gpulab::run_process(shell("sleep 30 & echo $!; wait", 0.5));
  const double elapsed = seconds_since(t0);
  CHECK(r.timed_out);
  CHECK(elapsed < 1.5);
  INFO(r.output);
  const pid_t grandchild = static_cast<pid_t>(std::atol(r.output.c_str()));
  REQUIRE(grandchild > 0);
  CHECK(process_dead(grandchild));
}

TEST_CASE("a child whose cancel flag is set is killed, group and all, and told as cancelled") {
  std::atomic<bool> cancel{false};
  ProcessOptions o = shell("sleep 30 & echo $!; wait", 20);
  o.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const auto t0 = Clock::now();
  const ProcessResult r = gpulab::run_process(o);
  canceller.join();
  CHECK(r.cancelled);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.ok());
  CHECK(seconds_since(t0) < 5);
  CHECK(contains(r.describe(), "stopped by gpulab"));
  const pid_t grandchild = static_cast<pid_t>(std::atol(r.output.c_str()));
  REQUIRE(grandchild > 0);
  CHECK(process_dead(grandchild));
  // Unset, the flag changes nothing.
  cancel = false;
  o = shell("echo done");
  o.cancel = &cancel;
  const ProcessResult ended = gpulab::run_process(o);
  CHECK(ended.ok());
  CHECK_FALSE(ended.cancelled);
}

TEST_CASE("a child still running at the children's deadline is killed, group and all") {
  const auto t0 = Clock::now();
  const gpulab::ChildDeadline deadline(t0 + std::chrono::milliseconds(500));
  // Its own timeout is far later: the deadline stops it, and says so by OutOfTime, not as a
  // timeout of its own.
  const test::TempDir dir;
  ProcessOptions o = shell("sleep 30 & echo $! > pid; wait", 30);
  o.cwd = dir.path();
  double ran_s = -1;
  try {
    gpulab::run_process(o);
  } catch (const gpulab::OutOfTime& stop) {
    ran_s = stop.ran_s;
    CHECK(stop.during.empty());
  }
  const double elapsed = seconds_since(t0);
  CHECK(ran_s >= 0.45);
  CHECK(elapsed < 1.5);
  const pid_t grandchild = static_cast<pid_t>(std::atol(test::read_file(dir / "pid").c_str()));
  REQUIRE(grandchild > 0);
  CHECK(process_dead(grandchild));
}

TEST_CASE("a child's own timeout before the deadline is its own, and no child starts past it") {
  const test::TempDir dir;
  ProcessOptions touch = shell("touch started");
  touch.cwd = dir.path();
  const auto t0 = Clock::now();
  {
    const gpulab::ChildDeadline deadline(t0 + std::chrono::seconds(20));
    REQUIRE(gpulab::ChildDeadline::current());
    // Deadlines nest: a part's within the grading's, then the grading's again.
    {
      const gpulab::ChildDeadline part(t0 + std::chrono::milliseconds(300));
      CHECK(*gpulab::ChildDeadline::current() == t0 + std::chrono::milliseconds(300));
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      // Past it: nothing is started (the file is never made), nor is the grader's own work.
      CHECK_THROWS_AS(gpulab::run_process(touch), gpulab::OutOfTime);
      CHECK_FALSE(std::filesystem::exists(dir / "started"));
      CHECK_THROWS_AS(gpulab::throw_if_out_of_time(), gpulab::OutOfTime);
    }
    CHECK(*gpulab::ChildDeadline::current() == t0 + std::chrono::seconds(20));
    gpulab::throw_if_out_of_time();  // the grading's deadline is still ahead
    const ProcessResult r = gpulab::run_process(shell("sleep 30", 0.3));
    CHECK(r.timed_out);
  }
  CHECK_FALSE(gpulab::ChildDeadline::current());
  CHECK(gpulab::run_process(shell("true")).ok());
}

// while_doing: an OutOfTime on its way up learns what ran, from the first caller that knows.
TEST_CASE("an OutOfTime is told what ran by the innermost caller that knows") {
  std::string during;
  try {
    gpulab::while_doing("the outer step", [] {
      gpulab::while_doing("the run on int-1", [] { throw gpulab::OutOfTime{2.5, "", false}; });
    });
  } catch (const gpulab::OutOfTime& stop) {
    during = stop.during;
  }
  CHECK(during == "the run on int-1");
  CHECK(gpulab::while_doing("unused", [] { return 7; }) == 7);
}

TEST_CASE("run_process keeps output_limit bytes and counts the rest") {
  ProcessOptions o = shell("head -c 1000000 /dev/zero | tr '\\0' x");
  o.output_limit = 4096;
  const ProcessResult r = gpulab::run_process(o);
  CHECK(r.ok());
  CHECK(r.output_truncated);
  CHECK(r.output_bytes == 1000000);
  REQUIRE(r.output.size() >= 4096);
  CHECK(std::count(r.output.begin(), r.output.begin() + 4096, 'x') == 4096);
  // Past the kept bytes only the grader's own note follows, not more of the child's output.
  CHECK(r.output.find_first_not_of('x') == 4096);
  CHECK(contains(r.output.substr(4096), "truncated"));
}

TEST_CASE("run_process cuts kept output between characters, never inside one") {
  // U+2588 (3 bytes) 2000 times: 4096 bytes is not a whole number of them.
  ProcessOptions o = shell("for i in $(seq 2000); do printf '\\342\\226\\210'; done");
  o.output_limit = 4096;
  const ProcessResult r = gpulab::run_process(o);
  CHECK(r.output_truncated);
  CHECK(r.output_bytes == 6000);
  const std::string kept = r.output.substr(0, r.output.find('\n'));
  CHECK(kept.size() == 4095);  // 1365 whole characters
  CHECK(gpulab::is_safe_text(r.output));
}

TEST_CASE("run_process reports a program that cannot be started") {
  ProcessOptions o;
  o.argv = {"/nonexistent/gpulab-no-such-program"};
  const ProcessResult r = gpulab::run_process(o);
  CHECK_FALSE(r.ok());
  INFO(r.start_error);
  CHECK(contains(r.start_error, "/nonexistent/gpulab-no-such-program"));
  CHECK(contains(r.start_error, "No such file"));
  CHECK(contains(r.describe(), "could not be started"));
}

TEST_CASE("run_process enforces the file size limit") {
  test::TempDir tmp;
  const size_t limit = 1 << 20;
  ProcessOptions o = shell("head -c 2000000 /dev/zero > f");
  o.cwd = tmp.path();
  o.file_size_limit = limit;
  const ProcessResult r = gpulab::run_process(o);
  INFO(r.describe());
  CHECK_FALSE(r.ok());
  CHECK((r.signal == SIGXFSZ || r.exit_code != 0));
  REQUIRE(std::filesystem::exists(tmp / "f"));
  CHECK(std::filesystem::file_size(tmp / "f") <= limit);
}

TEST_CASE("the child's environment takes the overrides and keeps the rest") {
  setenv("GPULAB_TEST_KEPT", "kept", 1);
  setenv("GPULAB_TEST_REPLACED", "old", 1);
  ProcessOptions o = shell("echo \"$GPULAB_TEST_KEPT $GPULAB_TEST_REPLACED [$GPULAB_TEST_EMPTY]\"");
  o.env = {"GPULAB_TEST_REPLACED=new", "GPULAB_TEST_EMPTY="};
  const ProcessResult r = gpulab::run_process(o);
  REQUIRE(r.ok());
  CHECK(r.output == "kept new []\n");
}

TEST_CASE("a child that inherits no environment has only the one it is given") {
  setenv("GPULAB_TEST_SECRET", "secret", 1);
  ProcessOptions o = shell("echo \"[$GPULAB_TEST_SECRET] [$GPULAB_TEST_GIVEN]\"");
  o.argv[0] = "/bin/sh";  // no PATH to look it up in
  o.inherit_env = false;
  o.env = {"GPULAB_TEST_GIVEN=given"};
  const ProcessResult r = gpulab::run_process(o);
  unsetenv("GPULAB_TEST_SECRET");
  REQUIRE(r.ok());
  CHECK(r.output == "[] [given]\n");
}

TEST_CASE("run_process sets the process and address-space limits") {
  ProcessOptions o = shell("grep -E 'Max (processes|address space)' /proc/self/limits");
  o.process_limit = 77;
  o.address_space_limit = size_t{3} << 30;
  const ProcessResult r = gpulab::run_process(o);
  INFO(r.output);
  REQUIRE(r.ok());
  CHECK(contains(r.output, "Max processes             77                   77"));
  CHECK(contains(r.output, "Max address space         3221225472           3221225472"));
}

TEST_CASE("run_process runs the child as another user, or not at all") {
  ProcessOptions o = shell("id -u; id -g; id -G");
  o.run_as = std::make_pair(uid_t{0x70000001}, gid_t{0x70000001});
  const ProcessResult r = gpulab::run_process(o);
  if (geteuid() == 0) {
    REQUIRE(r.ok());
    const std::string id = std::to_string(0x70000001);
    CHECK(r.output == id + "\n" + id + "\n" + id + "\n");  // no supplementary group of root's
  } else {
    // Only root may change its user: the child must then not run as the grader instead.
    CHECK_FALSE(r.ok());
    CHECK(contains(r.start_error, "not permitted"));
  }
}

TEST_CASE("a collect pipe keeps what the child wrote, even if it closes or replaces its end") {
  // Written, then the end closed and replaced by a file: what was written stays the grader's.
  ProcessOptions o = shell("printf 'one\\ntwo\\n' >&5; exec 5>&-; exec 5>/dev/null; echo gone >&5");
  o.collect = {5, 1024};
  ProcessResult r = gpulab::run_process(o);
  CHECK(r.ok());
  CHECK(r.collected == "one\ntwo\n");
  CHECK_FALSE(r.collected_truncated);

  // More than the limit: what fits, and the rest said to be cut.
  o = shell("head -c 5000 /dev/zero >&5");
  o.collect = {5, 1000};
  r = gpulab::run_process(o);
  CHECK(r.collected.size() == 1000);
  CHECK(r.collected_truncated);

  // More than a pipe's buffer: read while the child runs, so it never blocks.
  o = shell("head -c 300000 /dev/zero >&5", 10);
  o.collect = {5, 1 << 20};
  r = gpulab::run_process(o);
  CHECK_FALSE(r.timed_out);
  CHECK(r.collected.size() == 300000);

  // The child cannot open the pipe again to read it back (through /proc), as the grader's user
  // or, under a root grader, as the other user the sandbox gives it (root itself could).
  o = shell("(exec 6</proc/self/fd/5) 2>/dev/null && echo reopened || echo refused");
  o.collect = {5, 1024};
  if (geteuid() == 0) o.run_as = std::make_pair(uid_t{65534}, gid_t{65534});
  r = gpulab::run_process(o);
  CHECK(r.output == "refused\n");
}

TEST_CASE("a child gains no privilege, and loads the seccomp program it is given last") {
  // Builtins only: with the filter, the shell's first fork ends it.
  ProcessOptions o = shell(
      "while read -r key value; do case $key in NoNewPrivs:|Seccomp:) echo $key $value;; esac; "
      "done </proc/self/status");
  o.no_new_privs = true;
  ProcessResult r = gpulab::run_process(o);
  INFO(r.output);
  CHECK(r.ok());
  CHECK(r.output == "NoNewPrivs: 1\nSeccomp: 0\n");

  o.no_new_privs = false;
  o.seccomp_filter = gpulab::no_new_processes_filter();
  REQUIRE(!o.seccomp_filter.empty());
  r = gpulab::run_process(o);
  CHECK(r.ok());
  CHECK(r.output == "NoNewPrivs: 1\nSeccomp: 2\n");  // a filter implies no new privileges

  // The program runs under it: its first process is refused, and that ends it.
  o = shell("/bin/true; echo after");
  o.seccomp_filter = gpulab::no_new_processes_filter();
  r = gpulab::run_process(o);
  CHECK(r.signal == SIGSYS);
  CHECK_FALSE(contains(r.output, "after"));
}
