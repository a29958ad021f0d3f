#include "lab/lab_timing.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "lab/lab_json_reader.h"
#include "lab/lab_schema.h"
#include "stats.h"

namespace gpulab {

namespace {

// The settings `s` holds: the policy's keys (harness/timing.h) and the grader's own.
nlohmann::json grader_keys(const TimingSettings& s) {
  nlohmann::json j = s.policy;
  j["rounds"] = s.rounds;
  j["min_rounds"] = s.min_rounds;
  j["rounds_agree"] = s.rounds_agree;
  j["floor_slack"] = s.floor_slack;
  j["kept_reference_drift"] = s.kept_reference_drift;
  return j;
}

// The settings a part kind may give are the schema's "timing_values" (lab_schema.h), and
// apply() reads those TimingSettings holds: the two lists must be one, or a setting would be
// lost without a word. Checked once, at the first load.
void check_schema_lists_every_setting() {
  static const bool checked = [] {
    std::vector<std::string> held, allowed = schema_keys("/$defs/timing_values");
    const nlohmann::json defaults = grader_keys(TimingSettings{});
    for (const auto& [key, value] : defaults.items()) held.push_back(key);
    std::sort(allowed.begin(), allowed.end());
    if (held != allowed)
      throw std::logic_error(
          "labs/lab.schema.json's timing_values and TimingSettings hold different settings");
    return true;
  }();
  (void)checked;
}

// Lays the settings `obj` gives over `s` (the schema checked their types and ranges).
void apply(const nlohmann::json& obj, TimingSettings& s) {
  nlohmann::json j = grader_keys(s);
  for (auto& [key, value] : j.items())
    if (obj.contains(key)) value = obj[key];
  s.policy = j.get<TimingPolicy>();
  s.rounds = j["rounds"].get<int>();
  s.min_rounds = j["min_rounds"].get<int>();
  s.rounds_agree = j["rounds_agree"].get<double>();
  s.floor_slack = j["floor_slack"].get<double>();
  s.kept_reference_drift = j["kept_reference_drift"].get<double>();
}

void check_samples(const TimingSettings& s, const std::string& where, const LabJsonReader& r) {
  if (s.policy.max_samples < s.policy.min_samples)
    r.fail(where, "max_samples " + std::to_string(s.policy.max_samples) + " is below min_samples " +
                      std::to_string(s.policy.min_samples));
}

}  // namespace

bool TimingSettings::rounds_done(int done, const std::vector<std::vector<double>>& scored) const {
  if (done >= rounds) return true;
  if (done < std::min(min_rounds, rounds)) return false;
  return std::all_of(scored.begin(), scored.end(),
                     [&](const std::vector<double>& v) { return values_agree(v, rounds_agree); });
}

TimingPolicy TimingSettings::graded_policy() const {
  TimingPolicy graded = policy;
  graded.min_samples = graded.max_samples = std::max(1, policy.samples);
  return graded;
}

LabTiming LabTiming::parse(const nlohmann::json& timing, const LabJsonReader& r) {
  check_schema_lists_every_setting();
  LabTiming t;
  TimingSettings base;
  apply(timing, base);
  base.work = timing.value("work", base.work);
  base.work_unit = timing.value("work_unit", base.work_unit);
  const nlohmann::json ceiling = timing.value("ceiling_per_s", nlohmann::json::object());
  for (const char* kind : {"gpu", "cpu"}) {
    TimingSettings& s = std::string(kind) == "gpu" ? t.gpu : t.cpu;
    s = base;
    // A CPU part times the reference in every round unless lab.json says otherwise
    // (TimingSettings::kept_reference_drift).
    if (std::string(kind) == "cpu" && !timing.contains("kept_reference_drift"))
      s.kept_reference_drift = 0;
    if (timing.contains(kind)) apply(timing[kind], s);
    check_samples(s, timing.contains(kind) ? std::string("timing.") + kind : "timing", r);
    s.ceiling_per_s = ceiling.value(kind, s.ceiling_per_s);
  }
  return t;
}

}  // namespace gpulab
