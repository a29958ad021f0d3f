// End-to-end: a grader stopped by SIGTERM (a course platform's job timeout) or SIGINT while a
// submission runs writes a report without a score that says it was stopped and by which
// signal, exits with kExitStopped, and leaves no process behind (grader/os/stop_signals.h).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "e2e_util.h"
#include "os/exit_status.h"
#include "text/safe_text.h"

namespace {

using namespace e2e;
using Clock = std::chrono::steady_clock;

struct Stopped {
  int status = -1;     // waitpid's
  std::string output;  // gpulab's stdout and stderr
  double stop_s = 0;   // from the signal to gpulab's exit
};

// Starts `gpulab grade` on `submission`, sends `signal` once the grader has started running
// `part` on a dataset (its log says so) and a second more has passed, and waits for the exit.
Stopped grade_and_stop(const fs::path& submission, const fs::path& report, int signal) {
  int out[2];
  REQUIRE(pipe2(out, O_CLOEXEC) == 0);
  const std::vector<std::string> args = {GPULAB_TEST_BINARY,
                                         "grade",
                                         "scan",
                                         "--submission",
                                         submission.string(),
                                         "--out",
                                         report.string(),
                                         "--backend",
                                         "sim",
                                         "--part",
                                         "exclusive",
                                         "--no-time",
                                         "--timeout",
                                         "120",
                                         "--hidden-seed",
                                         kHiddenSeed};
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(out[1], 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  Stopped s;
  bool sent = false;
  Clock::time_point running{}, signalled{};
  const auto give_up = Clock::now() + std::chrono::minutes(5);
  for (char buf[4096];;) {
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, 100) > 0) {
      const ssize_t n = read(out[0], buf, sizeof buf);
      if (n <= 0) break;  // gpulab exited (every writer closed)
      s.output.append(buf, static_cast<size_t>(n));
    }
    if (running == Clock::time_point{} && s.output.find("  exclusive on ") != std::string::npos)
      running = Clock::now();
    if (!sent && running != Clock::time_point{} &&
        Clock::now() - running > std::chrono::seconds(1)) {
      REQUIRE(kill(pid, signal) == 0);
      signalled = Clock::now();
      sent = true;
    }
    if (Clock::now() > give_up) {
      kill(pid, SIGKILL);
      break;
    }
  }
  close(out[0]);
  REQUIRE(waitpid(pid, &s.status, 0) == pid);
  s.stop_s = std::chrono::duration<double>(Clock::now() - signalled).count();
  REQUIRE_MESSAGE(sent, "gpulab never started running the submission:\n" << s.output);
  return s;
}

}  // namespace

TEST_SUITE("adversarial") {
  TEST_CASE("a grader stopped by SIGTERM or SIGINT writes a report that says so, and stops all") {
    // Orphans of the grader's children come to this process, so any left running is found.
    REQUIRE(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    // A submission that sleeps for an hour in its host function, well within --timeout 120 s
    // when the signal comes.
    const fs::path submission = kSource / "tests" / "adversarial" / "scan" / "sleep-past-timeout";
    for (const int signal : {SIGTERM, SIGINT}) {
      CAPTURE(signal);
      const fs::path dir = scratch("stopped-" + std::to_string(signal));
      const fs::path report = dir / "results.json";
      const Stopped s = grade_and_stop(submission, report, signal);
      INFO("gpulab said:\n" << s.output);
      REQUIRE(WIFEXITED(s.status));
      CHECK(WEXITSTATUS(s.status) == gpulab::kExitStopped);
      // It stopped the run at once, not at its time limit.
      CHECK(s.stop_s < 10);
      const json j = read_report(report);
      const std::string name = signal == SIGTERM ? "SIGTERM" : "SIGINT";
      CHECK_FALSE(j.contains("score"));
      CHECK(output_says(j, "stopped (" + name + ")"));
      CHECK(j.at("extra_data").at("stopped").at("signal") == name);
      CHECK(j.at("extra_data").at("gpulab").at("lab") == "scan");
      CHECK(s.output.find("stopped by " + name) != std::string::npos);
      CHECK(gpulab::is_safe_text(s.output));
      const std::vector<std::string> left = leftover_processes();
      CHECK_MESSAGE(left.empty(), "processes were left running: " << left.size() << ", the first "
                                                                  << (left.empty() ? "" : left[0]));
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  }
}
