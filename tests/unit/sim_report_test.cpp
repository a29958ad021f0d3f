// grader/run/sim_report.h: the CPU backend's report read as an adversary's stream: findings merged,
// forged or missing end records, lines after the end, a count that does not add up.
#include "run/sim_report.h"

#include <doctest/doctest.h>

#include "test_util.h"

namespace {

using gpulab::read_sim_report;
using gpulab::SimReport;
using test::contains;

const std::string kKey = "0123abcd";

std::string race(long count) {
  return R"({"kind":"shared_race","severity":"warning","file":"scan.cu","line":12,"count":)" +
         std::to_string(count) + R"(,"message":"hazard on shared memory"})" + "\n";
}
std::string end(long launches, long records, const std::string& key = kKey) {
  return R"({"end":{"launches":)" + std::to_string(launches) + R"(,"records":)" +
         std::to_string(records) + R"(,"key":")" + key + "\"}}\n";
}

}  // namespace

TEST_CASE("a whole report: a finding sent when made and again at exit is one, its larger count") {
  const SimReport r = read_sim_report(race(1) + race(40) + end(3, 2), kKey, false, true);
  CHECK(r.problem.empty());
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0]["count"] == 40);
  CHECK(r.findings[0]["kind"] == "shared_race");
  CHECK(r.launches == 3);
  // An empty one with its end is whole too.
  CHECK(read_sim_report(end(1, 0), kKey, false, true).problem.empty());
}

TEST_CASE("a forged finding only adds: it never lowers a finding's count or severity") {
  std::string forged = race(1);
  forged.replace(forged.find("warning"), 7, "note");
  const SimReport r = read_sim_report(race(7) + forged + end(1, 2), kKey, false, true);
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0]["severity"] == "warning");
  CHECK(r.findings[0]["count"] == 7);
}

TEST_CASE("a finished run's report without its end record was cut off") {
  const SimReport r = read_sim_report(race(1), kKey, false, true);
  CHECK(contains(r.problem, "was cut off"));
  REQUIRE(r.findings.size() == 1);  // what was sent is still there, to name
  CHECK(contains(read_sim_report("", kKey, false, true).problem, "was cut off"));
  // A run that failed anyway needs none: its findings are read as they are.
  const SimReport failed = read_sim_report(race(1) + R"({"kind":"out_of_bo)", kKey, false, false);
  CHECK(failed.findings.size() == 1);
}

TEST_CASE("an end record the runtime did not write: wrong key, missing fields, or not last") {
  CHECK(contains(read_sim_report(end(1, 0, "guess"), kKey, false, true).problem, "did not write"));
  CHECK(contains(read_sim_report(R"({"end":{"records":0}})"
                                 "\n",
                                 kKey, false, true)
                     .problem,
                 "did not write"));
  CHECK(contains(read_sim_report(R"({"end":true})"
                                 "\n",
                                 kKey, false, true)
                     .problem,
                 "did not write"));
  CHECK(contains(read_sim_report(end(1, 0) + race(1), kKey, false, true).problem,
                 "goes on after its end"));
}

TEST_CASE("findings missing or added before the end record: the count does not add up") {
  // Read away by the program (one of two sent), or one written by it.
  CHECK(contains(read_sim_report(race(1) + end(1, 2), kKey, false, true).problem,
                 "holds 1 findings where the CPU backend sent 2"));
  CHECK(contains(read_sim_report(race(1) + race(2) + end(1, 1), kKey, false, true).problem,
                 "holds 2 findings where the CPU backend sent 1"));
}

TEST_CASE("lines that are not records, a last line cut short, a report over the limit") {
  CHECK(contains(read_sim_report("garbage\n" + end(1, 0), kKey, false, true).problem,
                 "did not write"));
  CHECK(
      contains(read_sim_report("[1,2]\n" + end(1, 0), kKey, false, true).problem, "did not write"));
  // A prefix written without a newline swallows the next record's line.
  CHECK(contains(read_sim_report(R"({"x":")" + race(1) + end(1, 1), kKey, false, true).problem,
                 "did not write"));
  CHECK(contains(read_sim_report(end(1, 0) + "{", kKey, false, true).problem, "middle of a line"));
  CHECK(contains(read_sim_report(race(1) + end(1, 1), kKey, true, true).problem,
                 "longer than gpulab reads"));
  // Every problem says what to do about it.
  CHECK(contains(read_sim_report("", kKey, false, true).problem, "cannot be switched off"));
}

TEST_CASE("a line nested past the reader's depth, or a field of another type, is the program's") {
  // 4 MiB of '[' on one line: refused at the level past the limit, before it is built.
  const std::string brackets(gpulab::kSimReportLimit - 1, '[');
  const SimReport deep = read_sim_report(brackets + "\n" + end(1, 0), kKey, false, true);
  CHECK(contains(deep.problem, "holds a line the CPU backend did not write"));
  CHECK(deep.launches == 1);
  // A finding with a count that is no whole number counts once; the end record's counts must be
  // whole numbers.
  std::string odd = race(1);
  odd.replace(odd.find("\"count\":1"), 9, "\"count\":\"9\"");
  const SimReport r = read_sim_report(odd + race(3) + end(2, 2), kKey, false, true);
  CHECK(r.problem == "");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0]["count"] == 3);
  CHECK(contains(read_sim_report(R"({"end":{"launches":"1","records":0,"key":")" + kKey + "\"}}\n",
                                 kKey, false, true)
                     .problem,
                 "ends with a record the CPU backend did not write"));
  CHECK(contains(read_sim_report(R"({"end":{"launches":1,"records":0.5,"key":")" + kKey + "\"}}\n",
                                 kKey, false, true)
                     .problem,
                 "ends with a record the CPU backend did not write"));
}

TEST_CASE("a call's mark: each finding lists every call it was received in") {
  // A batch: call 0 clean; the race made in call 1, made again in call 3 (sent again there);
  // an out-of-bounds write made in call 2; then the end of the calls and the race's final count
  // at exit, which is no call's.
  const std::string oob =
      R"({"kind":"out_of_bounds","severity":"error","file":"scan.cu","line":30,"count":1})"
      "\n";
  const auto mark = [](int k) { return R"({"call":)" + std::to_string(k) + "}\n"; };
  const SimReport r = read_sim_report(mark(0) + mark(1) + race(1) + mark(2) + oob + mark(3) +
                                          race(5) + mark(-1) + race(9) + end(4, 9),
                                      kKey, false, true);
  CHECK(r.problem.empty());
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0]["calls"] == nlohmann::json::array({1, 3}));
  CHECK(r.findings[0]["count"] == 9);
  CHECK(r.findings[1]["calls"] == nlohmann::json::array({2}));
  // Without marks, a finding has no call: the process's.
  CHECK_FALSE(
      read_sim_report(race(1) + end(1, 1), kKey, false, true).findings[0].contains("calls"));
  // A mark that is no call is the program's.
  CHECK(contains(read_sim_report(mark(-4) + end(1, 1), kKey, false, true).problem,
                 "your program wrote it"));
}
