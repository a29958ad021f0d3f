// grader/lab/run_limit.h: a correctness run's time limit, on the GPU and on the CPU backend, where
// it follows the reference's CPU time; and the limit stopping real processes, in CPU time and on
// the clock, with messages that say where the limit came from.
#include "lab/run_limit.h"

#include <doctest/doctest.h>
#include <signal.h>

#include "os/process.h"
#include "test_util.h"

namespace {

using gpulab::correctness_limit;
using gpulab::ProcessResult;
using gpulab::RunLimit;
using gpulab::SimTimeLimit;
using test::contains;

ProcessResult killed_by(int signal, double wall_s) {
  ProcessResult p;
  p.signal = signal;
  p.wall_s = wall_s;
  return p;
}

}  // namespace

TEST_CASE("on the CPU backend the limit is a multiple of the reference's CPU time") {
  const RunLimit l = correctness_limit(gpulab::Backend::sim, std::nullopt, 17.5, true);
  CHECK(l.cpu_s == 140);
  CHECK(l.wall_s == gpulab::kSimClockOverCpu * 140);
  CHECK_FALSE(l.awaits_reference);
  CHECK(contains(l.why, "the limit on the CPU backend is 8x the reference's 17.5 s of CPU time"));
  CHECK(contains(l.why, "140 s of CPU time"));
}

TEST_CASE("on the CPU backend the limit is never below its floor") {
  const RunLimit l = correctness_limit(gpulab::Backend::sim, std::nullopt, 2.5, true);
  CHECK(l.cpu_s == SimTimeLimit{}.floor_s);
  CHECK_FALSE(l.awaits_reference);
  CHECK(contains(l.why, "its least, 60 s of CPU time (8x the reference's 2.5 s"));
}

TEST_CASE("a lab's own rule, in whole seconds") {
  const RunLimit l = correctness_limit(gpulab::Backend::sim, std::nullopt, 0.26, true, {4, 1});
  CHECK(l.cpu_s == 2);  // 4 x 0.26 = 1.04, up to whole seconds
  CHECK(contains(l.why, "4x the reference's 0.26 s"));
  CHECK(correctness_limit(gpulab::Backend::sim, std::nullopt, 0.1, true, {4, 1}).cpu_s == 1);
}

TEST_CASE("before the reference's time is known the floor waits for it") {
  const RunLimit l = correctness_limit(gpulab::Backend::sim, std::nullopt, std::nullopt, true);
  CHECK(l.awaits_reference);
  CHECK(l.cpu_s == SimTimeLimit{}.floor_s);
  CHECK(contains(l.why, "not measured yet"));
  // Without a reference (the student kit) the floor is all there is.
  const RunLimit kit = correctness_limit(gpulab::Backend::sim, std::nullopt, std::nullopt, false);
  CHECK_FALSE(kit.awaits_reference);
  CHECK(kit.cpu_s == SimTimeLimit{}.floor_s);
  CHECK(contains(kit.why, "no reference solution here"));
}

TEST_CASE("--timeout overrides the rule on either backend; the GPU's is fixed") {
  for (const gpulab::Backend backend : {gpulab::Backend::sim, gpulab::Backend::cuda}) {
    const RunLimit l = correctness_limit(backend, 5.0, 100.0, true);
    CHECK(l.wall_s == 5);
    CHECK(l.cpu_s > l.wall_s);  // the clock decides
    CHECK_FALSE(l.awaits_reference);
    CHECK(contains(l.why, "5 s on the clock (--timeout)"));
  }
  const RunLimit gpu = correctness_limit(gpulab::Backend::cuda, std::nullopt, std::nullopt, true);
  CHECK(gpu.wall_s == gpulab::kGpuRunLimitS);
  CHECK_FALSE(gpu.awaits_reference);
}

TEST_CASE("what a limit stopped, and the words for it") {
  const RunLimit l = correctness_limit(gpulab::Backend::sim, std::nullopt, 17.5, true);
  // SIGXCPU when its CPU time reaches the limit.
  const ProcessResult xcpu = killed_by(SIGXCPU, 71);
  CHECK(l.stopped(xcpu));
  CHECK(contains(l.describe(xcpu),
                 "did not finish within the time limit (killed after 140 s of "
                 "CPU time, 71 s on the clock: the limit on the CPU backend is "
                 "8x the reference's 17.5 s"));
  // A SIGKILL is not the limit's own (the kernel's OOM killer, say): it is told as it came.
  const ProcessResult oom = killed_by(SIGKILL, 4);
  CHECK_FALSE(l.stopped(oom));
  CHECK(l.describe(oom) == oom.describe());
  ProcessResult asleep;
  asleep.timed_out = true;
  asleep.wall_s = 420.3;
  CHECK(l.stopped(asleep));
  CHECK(contains(l.describe(asleep),
                 "killed after 420 s on the clock: the limit on the CPU "
                 "backend is 8x the reference's 17.5 s"));
  CHECK_FALSE(l.stopped(killed_by(SIGSEGV, 1)));
}

TEST_CASE("a busy run is stopped by its CPU time, an idle one by the clock") {
  RunLimit l = correctness_limit(gpulab::Backend::sim, std::nullopt, 0.1, true, {1, 1});
  REQUIRE(l.cpu_s == 1);
  gpulab::ProcessOptions o;
  o.argv = {"/bin/sh", "-c", "while :; do :; done"};
  o.timeout_s = l.wall_s;
  o.cpu_limit_s = l.cpu_s;
  const ProcessResult busy = gpulab::run_process(o);
  CHECK(l.stopped(busy));
  CHECK_FALSE(busy.timed_out);
  CHECK(busy.signal == SIGXCPU);
  CHECK(contains(l.describe(busy), "killed after 1 s of CPU time"));

  o.argv = {"/bin/sh", "-c", "sleep 30"};
  const ProcessResult idle = gpulab::run_process(o);
  CHECK(l.stopped(idle));
  CHECK(idle.timed_out);
  CHECK(contains(l.describe(idle), "s on the clock: the limit on the CPU backend"));
}
