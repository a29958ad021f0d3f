// Fuzz target: the lab.json loader (grader/lab/lab_config.h) and the accessors grading uses on what
// it loaded. A broken lab.json must be a LabConfigError naming the problem, never a crash or
// another exception (nlohmann's type errors included).
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_target.h"
#include "lab/lab_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The folder must be named after the lab's id: take the id the text gives, where it gives a
  // usable one, so that inputs get past that check.
  std::string id = "lab";
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_object() && j.contains("id") && j["id"].is_string()) {
    const std::string given = j["id"].get<std::string>();
    if (!given.empty() && given.find('/') == std::string::npos && given != "." && given != ".." &&
        given.find('\0') == std::string::npos)
      id = given;
  }
  try {
    const gpulab::LabConfig lab = gpulab::LabConfig::parse(text, "labs/" + id + "/lab.json");
    FUZZ_REQUIRE(!lab.parts.empty() && !lab.groups.empty() && !lab.student_files.empty());
    for (const auto& part : lab.parts) {
      FUZZ_REQUIRE(lab.part(part.name) != nullptr);
      const double points = lab.part_points(part.name);
      FUZZ_REQUIRE(points >= 0 || points != points);
      // Every timing setting the loader accepts is one the runner and the grader can use.
      const gpulab::TimingSettings& t = lab.timing_for(part);
      FUZZ_REQUIRE(t.rounds >= 1 && t.floor_slack >= 1 && t.ceiling_per_s >= 0);
      FUZZ_REQUIRE(t.policy.min_samples >= 1 && t.policy.max_samples >= t.policy.min_samples);
      for (const auto& output : part.outputs) FUZZ_REQUIRE(lab.outputs.count(output) == 1);
    }
    for (const auto& g : lab.groups)
      for (const auto& ds : g.datasets) FUZZ_REQUIRE(g.hidden || ds.seed.has_value());
  } catch (const gpulab::LabConfigError&) {
  }
  return 0;
}
