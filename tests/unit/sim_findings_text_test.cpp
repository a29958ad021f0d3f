// grader/sim_findings_text.h: what a student reads of the CPU backend's findings.
#include "sim_findings_text.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

nlohmann::json finding(const std::string& kind, const std::string& message, long count) {
  return {{"kind", kind}, {"severity", "warning"}, {"message", message}, {"count", count}};
}

}  // namespace

TEST_CASE("findings that fail the dataset are shown first, each group in the order found") {
  // A private histogram with no barrier after its zeroing: the hazard inside a warp (a warning
  // advising __syncwarp) is found first, the race between warps (which fails) after it.
  const std::vector<nlohmann::json> found = {
      finding("warp_lockstep", "/tmp/w/submission/h.cu:9 add __syncwarp()", 40),
      finding("uninitialised_read", "read before written", 1),
      finding("shared_race", "/tmp/w/submission/h.cu:9 add __syncthreads()", 3),
      finding("global_race", "lost update", 2)};
  const std::string text = gpulab::describe_sim_findings(found, {"/tmp/w/submission/"});
  const size_t race = text.find("h.cu:9 add __syncthreads() (3 times)");
  const size_t global = text.find("lost update (2 times)");
  const size_t lockstep = text.find("h.cu:9 add __syncwarp() (40 times)");
  const size_t uninit = text.find("read before written");
  REQUIRE(race != std::string::npos);
  REQUIRE(global != std::string::npos);
  REQUIRE(lockstep != std::string::npos);
  REQUIRE(uninit != std::string::npos);
  CHECK(race < global);
  CHECK(global < lockstep);
  CHECK(lockstep < uninit);
  CHECK(text.find("/tmp/w") == std::string::npos);
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
