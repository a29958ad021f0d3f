// What keeps a graded timed run's work on its clock: no process may start another
// (grader/os/seccomp_filter.h), a call may not leave threads running nor its signal handlers
// armed between calls (harness/student_call.h), and the grader talks with a run over its channel
// (grader/os/process.h) to hand over each sample's inputs only when asked
// (grader/data/sample_stage.h).
#include <doctest/doctest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "data/sample_stage.h"
#include "os/process.h"
#include "os/seccomp_filter.h"
#include "sample_dataset.h"
#include "sandbox/sandbox.h"
#include "student_call.h"
#include "test_util.h"

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

TEST_CASE("a call that leaves a thread running fails; one that joins its threads passes") {
  gpulab::prepare_student_calls(false, true);
  {
    gpulab::StudentCall call("dcs_gather");
    std::thread([] {}).join();
    CHECK_NOTHROW(call.returned());
  }
  std::atomic<bool> stop{false};
  std::thread left;
  {
    gpulab::StudentCall call("dcs_gather");
    left = std::thread([&stop] {
      while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    try {
      call.returned();
      FAIL("a thread left running was not seen");
    } catch (const std::exception& e) {
      CHECK(contains(e.what(), "your dcs_gather returned while 1 thread(s) it started"));
    }
  }
  // Not only the call that started it: any later call's end finds it too.
  {
    gpulab::StudentCall call("dcs_gather");
    CHECK_THROWS(call.returned());
  }
  stop = true;
  left.join();
  // A thread alive before the student's first call (the runtime's) is not the student's.
  std::atomic<bool> stop_runtime{false};
  std::thread runtime([&stop_runtime] {
    while (!stop_runtime) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  gpulab::prepare_student_calls(false, true);
  {
    gpulab::StudentCall call("dcs_gather");
    CHECK_NOTHROW(call.returned());
  }
  stop_runtime = true;
  runtime.join();
}

std::atomic<int> handled{0};

TEST_CASE("a handler the student's call installed is ignored between calls, and given back") {
  gpulab::prepare_student_calls(false, true);
  struct sigaction old {};
  sigaction(SIGUSR2, nullptr, &old);
  handled = 0;
  {
    gpulab::StudentCall call("dcs_gather");
    signal(SIGUSR2, [](int) { ++handled; });
    raise(SIGUSR2);
    CHECK(handled == 1);
    call.returned();
  }
  // Between calls (where the harness loads inputs and captures outputs) it does not run.
  raise(SIGUSR2);
  CHECK(handled == 1);
  {
    gpulab::StudentCall call("dcs_gather");  // back for the next call
    raise(SIGUSR2);
    CHECK(handled == 2);
    call.returned();
  }
  sigaction(SIGUSR2, &old, nullptr);
}

TEST_CASE("the grader talks with a child over its channel, and hands it bytes on an fd") {
  gpulab::ProcessOptions po;
  po.timeout_s = 20;
  // A child that sends two messages, the second with a descriptor, and prints the answers.
  po.argv = {"python3", "-c",
             "import socket, os\n"
             "s = socket.socket(fileno=3)\n"
             "s.send(b'{\"ask\": 1}')\n"
             "a = s.recv(100)\n"
             "r, w = os.pipe()\n"
             "socket.send_fds(s, [b'{\"ask\": 2}'], [r])\n"
             "b = s.recv(100)\n"
             "print('got', a.decode(), b.decode(), os.read(7, 100).decode())\n"};
  po.channel_fd = 3;
  std::vector<size_t> fds;
  po.on_message = [&fds](gpulab::ChannelMessage& m) {
    fds.push_back(m.fds.size());
    CHECK(m.clock->wall_s() >= 0);
    return "answer-" + m.bytes;
  };
  po.fd_inputs = {{7, "bytes on seven"}};
  const gpulab::ProcessResult r = gpulab::run_process(po);
  CHECK_MESSAGE(r.ok(), r.describe() << r.output);
  CHECK(contains(r.output, "got answer-{\"ask\": 1} answer-{\"ask\": 2}"));
  CHECK(contains(r.output, "bytes on seven"));
  CHECK(fds == std::vector<size_t>{0, 1});
}

TEST_CASE("a child that floods its channel and reads no answer cannot stall the grader") {
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  // 200 000 messages, none of whose answers is read: the answers would fill the socket.
  po.argv = {"python3", "-c",
             "import socket\n"
             "s = socket.socket(fileno=3)\n"
             "for i in range(200000): s.send(b'x')\n"
             "print('done')\n"};
  po.channel_fd = 3;
  size_t asked = 0;
  po.on_message = [&asked](gpulab::ChannelMessage&) {
    ++asked;
    return std::string("error");
  };
  const auto t0 = std::chrono::steady_clock::now();
  const gpulab::ProcessResult r = gpulab::run_process(po);
  CHECK_MESSAGE(r.ok(), r.describe() << r.output);
  CHECK(test::contains(r.output, "done"));
  CHECK(asked == 200000);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(25));
}

TEST_CASE("a sample's inputs appear only when asked for, in order") {
  const test::TempDir tmp;
  const fs::path root = tmp.path();
  std::vector<gpulab::DatasetDirs> samples;
  for (const char* name : {"a", "b", "c"})
    samples.push_back({"timing", name, false, test::sample_dataset(root / "store", name), {}});
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
      {"timing", "a", false, test::sample_dataset(root / "store", "a"), {}}};
  gpulab::SampleStage stage(root / "samples", samples);
  CHECK(stage.answer("1") == "1");
  CHECK(stage.answer("2") == "error");
  CHECK(stage.answer("1") == "error");
}

}  // namespace
