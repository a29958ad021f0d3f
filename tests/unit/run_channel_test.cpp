// The grader's end of a run's channel (grader/run/run_channel.h): what a harness sends is taken,
// anything else fails the run, and each timed sample's window is measured from outside; and what
// the grader makes of that window (grader/run/outside_clock.h).
#include "run/run_channel.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include "run/outside_clock.h"
#include "sample_dataset.h"
#include "sealed_file.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using test::contains;

// This process's clock stands in for a child's.
const gpulab::ChildClock kClock{getpid(), std::chrono::steady_clock::now()};

gpulab::ChannelMessage message(const std::string& bytes) {
  gpulab::ChannelMessage m;
  m.bytes = bytes;
  m.clock = &kClock;
  return m;
}

gpulab::ChannelMessage output(const std::string& name, size_t bytes = 64) {
  gpulab::ChannelMessage m = message(R"({"output": ")" + name + R"("})");
  m.fds.push_back(gpulab::sealed_memory_file(name, bytes, [](void*) {}));
  return m;
}

struct TimedRun {
  test::TempDir dir;
  std::vector<gpulab::DatasetDirs> samples = {
      {"timing", "a", false, test::sample_dataset(dir / "store", "a"), {}},
      {"timing", "b", false, test::sample_dataset(dir / "store", "b"), {}}};
  gpulab::SampleStage stage{dir / "samples", samples};
  gpulab::RunChannel channel{{{"sample1_out", 1}, {"sample2_out", 2}, {"out", 0}}, 1000, &stage};

  std::string send(const std::string& bytes) {
    gpulab::ChannelMessage m = message(bytes);
    return channel.on_message(m);
  }
  std::string hand_over(const std::string& name) {
    gpulab::ChannelMessage m = output(name);
    return channel.on_message(m);
  }
};

}  // namespace

TEST_CASE("a run that speaks as the harness does: outputs, samples in order, the record") {
  TimedRun r;
  CHECK(r.hand_over("out").empty());
  CHECK(r.send(R"({"ask": 1})") == R"({"sample":1})");
  CHECK(fs::exists(r.dir / "samples" / "1" / "atoms.npy"));
  CHECK(r.hand_over("sample1_out").empty());
  CHECK(r.send(R"({"done": 1, "ms": 2.5, "cpu_ms": 2.0})") == R"({"ok":1})");
  CHECK(r.send(R"({"ask": 2})") == R"({"sample":2})");
  CHECK(r.hand_over("sample2_out").empty());
  CHECK(r.send(R"({"done": 2, "ms": 3.5, "cpu_ms": 3.0})") == R"({"ok":2})");
  CHECK(r.send(R"({"record": {"status": "ok", "work": 10, "outputs": ["sample1_out"]}})").empty());
  CHECK(r.channel.problem().empty());
  CHECK(r.channel.record()["work"] == 10);
  CHECK(r.channel.outputs()->has("sample1_out"));
  REQUIRE(r.channel.samples().size() == 2);
  CHECK(r.channel.samples()[1].inside_ms == 3.5);
  CHECK(r.channel.samples()[1].inside_cpu_ms == 3.0);
  CHECK(r.channel.samples()[0].outside_wall_ms >= 0);
  CHECK(r.channel.samples()[0].outside_cpu_ms >= 0);
}

TEST_CASE("a sample asked for early or twice, or ended out of turn, fails the run") {
  {
    TimedRun r;  // ahead of the harness: sample 2 first
    CHECK(contains(r.send(R"({"ask": 2})"), "error"));
    CHECK(contains(r.channel.problem(),
                   "asked for timed sample 2 where gpulab's harness asks "
                   "for sample 1 next"));
    CHECK_FALSE(fs::exists(r.dir / "samples" / "2"));
  }
  {
    TimedRun r;  // every sample fetched at once, before any is done
    CHECK(r.send(R"({"ask": 1})") == R"({"sample":1})");
    CHECK(contains(r.send(R"({"ask": 2})"), "error"));
    CHECK(contains(r.channel.problem(),
                   "asked for timed sample 2 before sample 1, handed over "
                   "already, was done"));
    CHECK_FALSE(fs::exists(r.dir / "samples" / "2"));
    // ... and once failed, every later message is refused too.
    CHECK(contains(r.send(R"({"done": 1, "ms": 1, "cpu_ms": 1})"), "error"));
  }
  {
    TimedRun r;
    CHECK(contains(r.send(R"({"done": 1, "ms": 1, "cpu_ms": 1})"), "error"));
    CHECK(contains(r.channel.problem(), "had not handed over"));
  }
  {
    TimedRun r;  // a time that is no time
    r.send(R"({"ask": 1})");
    CHECK(contains(r.send(R"({"done": 1, "ms": -1, "cpu_ms": 1})"), "error"));
  }
  {
    gpulab::RunChannel untimed({{"out", 0}}, 1000, nullptr);
    gpulab::ChannelMessage m = message(R"({"ask": 1})");
    CHECK(contains(untimed.on_message(m), "not a timed run"));
  }
  {
    TimedRun r;  // a record that ends a sample it never finished, as if all had gone well
    r.send(R"({"ask": 1})");
    CHECK(contains(r.send(R"({"record": {"status": "ok", "work": 10}})"), "error"));
    CHECK(contains(r.channel.problem(), "ended a timed sample without its end"));
  }
}

TEST_CASE("an output out of its turn fails the run: a sample's between its hand-over and its end") {
  {
    TimedRun r;  // "done" first, the work after it: the outputs would come after the window
    r.send(R"({"ask": 1})");
    CHECK(contains(r.send(R"({"done": 1, "ms": 1, "cpu_ms": 1})"), "error"));
    CHECK(contains(r.channel.problem(),
                   "said timed sample 1 was done before handing over its output \"sample1_out\""));
  }
  {
    TimedRun r;  // a sample's output before its inputs exist
    CHECK(contains(r.hand_over("sample1_out"), "error"));
    CHECK(contains(r.channel.problem(),
                   "the output \"sample1_out\" of timed sample 1 outside that sample's turn"));
  }
  {
    TimedRun r;  // sample 1's output in sample 2's window
    r.send(R"({"ask": 1})");
    r.hand_over("sample1_out");
    r.send(R"({"done": 1, "ms": 1, "cpu_ms": 1})");
    r.send(R"({"ask": 2})");
    CHECK(r.channel.problem().empty());
    CHECK(contains(r.hand_over("sample1_out"), "error"));  // once only, and in its turn
    CHECK_FALSE(r.channel.problem().empty());
  }
  {
    TimedRun r;  // the run's own output after its samples began
    r.send(R"({"ask": 1})");
    CHECK(contains(r.hand_over("out"), "error"));
    CHECK(contains(r.channel.problem(), "its output \"out\" after asking for timed sample 1"));
  }
  {
    TimedRun r;  // and after a sample's end, before the next is asked for: still out of turn
    r.send(R"({"ask": 1})");
    r.hand_over("sample1_out");
    r.send(R"({"done": 1, "ms": 1, "cpu_ms": 1})");
    CHECK(contains(r.hand_over("sample2_out"), "error"));
  }
}

TEST_CASE("a call that fails in a timed sample ends the run there, with the harness's word") {
  // The harness sends its record, status "error", where the sample's call threw: the run has
  // failed, and the grader says why as the record does, not that the sample had no end.
  TimedRun r;
  CHECK(r.send(R"({"ask": 1})") == R"({"sample":1})");
  CHECK(
      r.send(R"({"record": {"status": "error", "message": "your cpu_fast left a thread running"}})")
          .empty());
  CHECK(r.channel.problem().empty());
  CHECK(r.channel.record()["status"] == "error");
  CHECK(r.channel.record()["message"] == "your cpu_fast left a thread running");
  CHECK(r.channel.samples().empty());
}

TEST_CASE("what no harness sends fails the run, saying so; nothing is taken after the record") {
  const auto problem = [](std::vector<gpulab::ChannelMessage> ms) {
    TimedRun r;
    for (auto& m : ms) r.channel.on_message(m);
    return r.channel.problem();
  };
  const auto one = [&](gpulab::ChannelMessage m) {
    std::vector<gpulab::ChannelMessage> ms;
    ms.push_back(std::move(m));
    return problem(std::move(ms));
  };
  CHECK(contains(one(message("not json")), "a message it cannot read"));
  CHECK(contains(one(message("[1, 2]")), "a message it cannot read"));
  CHECK(contains(one(message(std::string(100, '[') + std::string(100, ']'))),
                 "a message it cannot read"));
  CHECK(contains(one(message(R"({"hello": 1})")), "of a kind it does not know"));
  CHECK(contains(one(output("elsewhere")), "an output it does not take (\"elsewhere\")"));
  CHECK(contains(one(output("out", 5000)), "larger (5000 bytes)"));
  gpulab::ChannelMessage with_fd = message(R"({"ask": 1})");
  with_fd.fds.push_back(gpulab::sealed_memory_file("x", 1, [](void*) {}));
  CHECK(contains(one(std::move(with_fd)), "a descriptor with a message that carries none"));
  gpulab::ChannelMessage big = message("{}");
  big.too_long = true;
  CHECK(contains(one(std::move(big)), "larger than any of its own"));
  {
    std::vector<gpulab::ChannelMessage> ms;
    ms.push_back(output("out"));
    ms.push_back(output("out"));
    CHECK(contains(problem(std::move(ms)), "came twice"));
  }
  {
    std::vector<gpulab::ChannelMessage> ms;
    ms.push_back(message(R"({"record": {"status": "ok"}})"));
    ms.push_back(output("out"));
    CHECK(contains(problem(std::move(ms)), "more after its record"));
  }
  // Every problem names the cause: only the run's own code sends such things.
  CHECK(contains(one(message("not json")), "did your code write to gpulab's descriptor 3?"));
}

TEST_CASE("a record whose fields have other types fails the run, never the grading") {
  CHECK(gpulab::record_problem({{"status", "ok"}, {"work", 3.0}, {"cpu_s", 1}}).empty());
  CHECK(contains(gpulab::record_problem({{"status", "ok"}, {"work", "lots"}}),
                 "\"work\" of another type than a number"));
  CHECK(contains(gpulab::record_problem({{"status", "ok"}, {"outputs", 3}}),
                 "\"outputs\" of another type than an array"));
  CHECK(contains(gpulab::record_problem({{"status", 1}}), "\"status\" of another type"));
  CHECK(contains(gpulab::record_problem({{"message", "x"}}), "has no status"));
  CHECK(contains(gpulab::record_problem({{"status", "ok"}, {"timing", {{"median_ms", "fast"}}}}),
                 "\"timing.median_ms\" of another type than a number"));
  CHECK(contains(gpulab::record_problem({{"status", "ok"}, {"baseline", {{"name", "b"}}}}),
                 "without its timing"));
  CHECK(contains(gpulab::record_problem(nlohmann::json::array()), "not a JSON object"));
  TimedRun r;
  CHECK(contains(r.send(R"({"record": {"status": "ok", "work": "lots"}})"), "error"));
  CHECK(r.channel.record().is_null());
}

TEST_CASE("the outside clock holds a timed run to its windows less the reference's shares") {
  using S = gpulab::SampleClock;
  using Run = std::vector<S>;
  // The reference's run on the same three samples: 10 ms inside, 110 ms outside: the harness's
  // share is 100 ms on each (on the CPU clock 105 - 9 = 96 ms).
  const Run reference = {{10, 9, 110, 105}, {10, 9, 110, 105}, {10, 9, 110, 105}};
  const double wall_room = 100 * gpulab::kShareNoise + gpulab::kWallSlackMs;
  const double cpu_room = 96 * gpulab::kShareNoise + gpulab::kCpuSlackMs;
  // An honest student, slower: the windows grow by what the calls took.
  gpulab::OutsideChecked c = gpulab::outside_checked(
      true, {{40, 39, 140, 135}, {41, 40, 141, 136}, {39, 38, 139, 134}}, reference);
  CHECK_FALSE(c.contradicted);
  CHECK(c.ms == 40);
  CHECK(c.excess_ms == doctest::Approx(0));
  CHECK(c.share_ms == doctest::Approx(100));  // what a sample costs beyond its call
  // A run whose record claims 1 ms a call while each window held 400 ms of work.
  const Run forged = {{1, 1, 500, 480}, {1, 1, 500, 480}, {1, 1, 500, 480}};
  c = gpulab::outside_checked(true, forged, reference);
  CHECK(c.contradicted);
  CHECK(c.ms == doctest::Approx(400 - wall_room));
  CHECK(c.excess_ms == doctest::Approx(399));
  // A CPU part is held to the CPU time of its tree, which a busy machine does not inflate, less
  // the reference's CPU share.
  c = gpulab::outside_checked(false, forged, reference);
  CHECK(c.contradicted);
  CHECK(c.ms == doctest::Approx(480 - 96 - cpu_room));
  CHECK(c.share_ms == doctest::Approx(96));
  // Work in another thread while the harness loads the inputs: more CPU time than wall time.
  const Run threaded = {{20, 20, 120, 400}, {20, 20, 120, 400}, {20, 20, 120, 400}};
  CHECK(gpulab::outside_checked(false, threaded, reference).contradicted);
  CHECK_FALSE(gpulab::outside_checked(true, threaded, reference).contradicted);
  // One slow sample of an honest run (the machine's, not the code's) moves no median.
  const Run spike = {{10, 9, 110, 105}, {10, 9, 190, 185}, {10, 9, 112, 107}};
  c = gpulab::outside_checked(true, spike, reference);
  CHECK_FALSE(c.contradicted);
  CHECK(c.ms == 10);
  // Without a reference (the student kit) the inside times count as they are.
  c = gpulab::outside_checked(true, forged, {});
  CHECK_FALSE(c.contradicted);
  CHECK(c.ms == 1);
}
