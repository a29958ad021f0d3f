// What keeps a graded timed run's work on its clock: no process may start another
// (grader/seccomp_filter.h), a timed call may not leave threads running
// (harness/thread_watch.h), and the grader talks with a run over its pipes (grader/process.h)
// to hand over each sample's inputs only when asked (grader/sample_stage.h).
#include <doctest/doctest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "process.h"
#include "sample_stage.h"
#include "sandbox.h"
#include "seccomp_filter.h"
#include "test_util.h"
#include "thread_watch.h"

namespace {

namespace fs = std::filesystem;
using test::contains;

TEST_CASE("a sandboxed run that starts a process is ended and told why; threads are fine") {
  const gpulab::Sandbox sandbox = gpulab::Sandbox::detect(gpulab::Paths::current(), false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  REQUIRE_FALSE(gpulab::no_new_processes_filter().empty());
  gpulab::SandboxSpec spec;
  spec.no_new_processes = true;
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  // The shell forks for the first command, since another follows it.
  po.argv = {"/bin/sh", "-c", "/bin/true; /bin/true"};
  const gpulab::ProcessResult forked = sandbox.run(po, spec);
  CHECK(forked.signal == SIGSYS);
  CHECK(contains(forked.describe(), "tried to start a new process"));
  // Without the filter (a build) the same shell runs.
  CHECK(sandbox.run(po, gpulab::SandboxSpec{}).ok());
  // A process that starts none, and one that only makes threads (sort --parallel), run.
  po.argv = {"/bin/sh", "-c", "exec /bin/true"};
  CHECK(sandbox.run(po, spec).ok());
  po.argv = {"/usr/bin/sort", "--parallel=4", "-S", "64M", "/etc/ld.so.cache"};
  const gpulab::ProcessResult threads = sandbox.run(po, spec);
  CHECK_MESSAGE(threads.ok(), threads.describe() << threads.output);
}

TEST_CASE("a timed call that leaves a thread running fails; one that joins its threads passes") {
  {
    const gpulab::ThreadWatch watch;
    std::thread([] {}).join();
    CHECK_NOTHROW(watch.check_none_left("dcs_gather"));
  }
  std::atomic<bool> stop{false};
  std::thread left;
  {
    const gpulab::ThreadWatch watch;
    left = std::thread([&stop] {
      while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    try {
      watch.check_none_left("dcs_gather");
      FAIL("a thread left running was not seen");
    } catch (const std::exception& e) {
      CHECK(contains(e.what(), "your dcs_gather returned while 1 thread(s) it started"));
    }
  }
  stop = true;
  left.join();
  // A thread alive before the call is not the call's.
  const gpulab::ThreadWatch after;
  CHECK_NOTHROW(after.check_none_left("dcs_gather"));
}

TEST_CASE("the grader answers a child's requests on its pipes, and hands it bytes on an fd") {
  gpulab::ProcessOptions po;
  po.timeout_s = 10;
  po.argv = {"/bin/sh", "-c",
             "echo 1 >&3; read a <&4; echo 2 >&3; read b <&4; echo \"got $a $b\"; cat <&7"};
  po.requests = {3, 4};
  po.answer = [](const std::string& line) { return "answer-" + line; };
  po.fd_inputs = {{7, "bytes on seven"}};
  const gpulab::ProcessResult r = gpulab::run_process(po);
  CHECK_MESSAGE(r.ok(), r.describe());
  CHECK(contains(r.output, "got answer-1 answer-2"));
  CHECK(contains(r.output, "bytes on seven"));
}

TEST_CASE("a child that floods its requests and reads no answer cannot stall the grader") {
  gpulab::ProcessOptions po;
  po.timeout_s = 20;
  // About 5 MB of requests, none answered by reading fd 4: the answers would fill the pipe.
  po.argv = {"/bin/sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' '\\n' >&3; echo done"};
  po.requests = {3, 4};
  size_t asked = 0;
  po.answer = [&asked](const std::string&) {
    ++asked;
    return std::string("error");
  };
  const auto t0 = std::chrono::steady_clock::now();
  const gpulab::ProcessResult r = gpulab::run_process(po);
  CHECK_MESSAGE(r.ok(), r.describe());
  CHECK(test::contains(r.output, "done"));
  CHECK(asked > 100000);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(15));
}

// A dataset folder as the store makes one: meta.json (no seed: dataset_store.h) and one input.
fs::path sample_dataset(const fs::path& root, const std::string& name) {
  const fs::path input = root / name / "input";
  fs::create_directories(input);
  std::ofstream(input / "meta.json") << R"({"name": ")" << name << R"("})";
  std::ofstream(input / "atoms.npy") << name;
  return input;
}

TEST_CASE("a sample's inputs appear only when asked for, in order") {
  const test::TempDir tmp;
  const fs::path root = tmp.path();
  std::vector<gpulab::DatasetDirs> samples;
  for (const char* name : {"a", "b", "c"})
    samples.push_back({"timing", name, false, sample_dataset(root / "store", name), {}});
  const fs::path dir = root / "samples";
  gpulab::SampleStage stage(dir, samples);
  CHECK(fs::is_empty(dir));
  CHECK(stage.answer("1") == "1");
  CHECK(fs::exists(dir / "1" / "atoms.npy"));
  CHECK_FALSE(fs::exists(dir / "2"));
  std::ifstream meta(dir / "1" / "meta.json");
  const std::string text((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
  CHECK(contains(text, "\"a\""));
  // Ahead of the runner's order: refused, and every later request too.
  CHECK(stage.answer("3") == "error");
  CHECK(contains(stage.problem(), "asked for the inputs of timed sample \"3\""));
  CHECK(stage.answer("2") == "error");
  CHECK_FALSE(fs::exists(dir / "3"));
  CHECK(stage.handed_over() == 1);
}

TEST_CASE("a sample is handed over once, and no more than there are") {
  const test::TempDir tmp;
  const fs::path root = tmp.path();
  std::vector<gpulab::DatasetDirs> samples = {
      {"timing", "a", false, sample_dataset(root / "store", "a"), {}}};
  gpulab::SampleStage stage(root / "samples", samples);
  CHECK(stage.answer("1") == "1");
  CHECK(stage.answer("2") == "error");
  CHECK(stage.answer("1") == "error");
}

}  // namespace
