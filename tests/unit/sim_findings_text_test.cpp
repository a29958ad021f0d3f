// grader/core/sim_findings_text.h: what a student reads of the CPU backend's findings.
#include "core/sim_findings_text.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

nlohmann::json finding(const std::string& kind, const std::string& message, long count) {
  return {{"kind", kind}, {"severity", "warning"}, {"message", message}, {"count", count}};
}

}  // namespace

TEST_CASE("findings that fail the dataset are shown first, each rank in the order found") {
  // A private histogram with no barrier after its zeroing: the hazard inside a warp (a warning
  // advising __syncwarp) is found first, the race between warps (which fails) after it.
  const std::vector<nlohmann::json> found = {
      finding("warp_lockstep", "/tmp/w/submission/h.cu:9 add __syncwarp()", 40),
      finding("uninitialised_read", "read before written", 1),
      finding("shared_race", "/tmp/w/submission/h.cu:9 add __syncthreads()", 3),
      finding("global_race", "lost update", 2)};
  const std::string text = gpulab::describe_sim_findings(found, {"/tmp/w/submission/"});
  const size_t uninit = text.find("read before written");
  const size_t race = text.find("h.cu:9 add __syncthreads() (3 times)");
  const size_t global = text.find("lost update (2 times)");
  const size_t lockstep = text.find("h.cu:9 add __syncwarp() (40 times)");
  REQUIRE(uninit != std::string::npos);
  REQUIRE(race != std::string::npos);
  REQUIRE(global != std::string::npos);
  REQUIRE(lockstep != std::string::npos);
  // The races, then the uninitialised read (often their symptom), then what only warns.
  CHECK(race < global);
  CHECK(global < uninit);
  CHECK(uninit < lockstep);
  CHECK(text.find("/tmp/w") == std::string::npos);
}

TEST_CASE("a finding that fails the dataset is an error to the student, whatever its severity") {
  // The records say "warning" (the kernel went on); the student reads what grading does.
  const std::string text = gpulab::describe_sim_findings(
      {finding("shared_race", "race", 1), finding("warp_lockstep", "lockstep", 1)}, {});
  CHECK(text.find("gpulab sim, error: race") != std::string::npos);
  CHECK(text.find("gpulab sim, warning: lockstep") != std::string::npos);
  CHECK(text.find("warning: race") == std::string::npos);
}

TEST_CASE("findings that read the same are one line, their counts added") {
  // The same kernel launched from two places (two records), at other addresses, and a third
  // finding at another line.
  nlohmann::json a = finding("uninitialised_read", "4 bytes at 0x7f00aa10 nothing wrote", 296);
  a["file"] = "/tmp/w/submission/h.cu";
  a["line"] = 12;
  a["launch_line"] = 40;
  nlohmann::json b = a;
  b["message"] = "4 bytes at 0x7f00bb20 nothing wrote";
  b["count"] = 4;
  b["launch_line"] = 41;
  nlohmann::json c = a;
  c["line"] = 13;
  const std::string text = gpulab::describe_sim_findings({a, b, c}, {"/tmp/w/submission/"});
  CHECK(text.find("(at h.cu:12, 300 times)") != std::string::npos);
  CHECK(text.find("(at h.cu:13, 296 times)") != std::string::npos);
  CHECK(text.find("0x7f00bb20") == std::string::npos);  // the first one's words are kept
  size_t lines = 0;
  for (size_t at = 0; (at = text.find("gpulab sim,", at)) != std::string::npos; ++at) ++lines;
  CHECK(lines == 2);
}

TEST_CASE("each finding says where it was made, its path cut to what the student knows") {
  nlohmann::json f = finding("shared_race", "thread (32,0,0) updates bytes (at h.cu:7)", 436);
  f["file"] = "/tmp/w/submission/h.cu";
  f["line"] = 131;
  CHECK(gpulab::describe_sim_findings({f}, {"/tmp/w/submission/"})
            .find("(at h.cu:7) (at h.cu:131, 436 times)") != std::string::npos);
  f["line"] = "131";  // a record that is not what the runtime writes: no place is made up
  CHECK(gpulab::describe_sim_findings({f}, {}).find("(436 times)") != std::string::npos);
}

TEST_CASE("at most five findings are shown, the rest counted") {
  std::vector<nlohmann::json> found;
  for (int i = 0; i < 7; ++i)
    found.push_back(finding("warp_lockstep", "site " + std::to_string(i), 1));
  const std::string text = gpulab::describe_sim_findings(found, {});
  CHECK(text.find("site 4") != std::string::npos);
  CHECK(text.find("site 5") == std::string::npos);
  CHECK(text.find("... and 2 more findings") != std::string::npos);
}

TEST_CASE("a finding that stopped the kernel is told first") {
  const std::string text = gpulab::describe_sim_findings(
      {finding("uninitialised_read", "unset", 1), finding("global_race", "race", 1),
       finding("out_of_bounds", "overrun", 1)},
      {});
  CHECK(text.find("overrun") < text.find("race"));
  CHECK(text.find("race") < text.find("unset"));
}

TEST_CASE("a lost update takes in the races its own line meets in other iterations") {
  nlohmann::json lost = finding("lost_update", "lost: make it an atomic", 5);
  nlohmann::json race = finding("shared_race", "race: add __syncthreads()", 7);
  nlohmann::json elsewhere = race;
  for (auto* f : {&lost, &race, &elsewhere}) {
    (*f)["file"] = "k.cu";
    (*f)["line"] = 9;
  }
  elsewhere["line"] = 10;
  const std::string text = gpulab::describe_sim_findings({race, lost, elsewhere}, {});
  CHECK(text.find("lost: make it an atomic (at k.cu:9, 12 times)") != std::string::npos);
  CHECK(text.find("add __syncthreads() (at k.cu:9") == std::string::npos);
  CHECK(text.find("add __syncthreads() (at k.cu:10, 7 times)") != std::string::npos);
}
