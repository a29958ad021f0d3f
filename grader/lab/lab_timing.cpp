#include "lab/lab_timing.h"

#include <algorithm>
#include <vector>

#include "lab/lab_json_reader.h"
#include "stats.h"

namespace gpulab {

namespace {

// The least value of each numeric setting a part kind may give (labs/lab.schema.json says the
// same). Integer settings are those whose default is an integer.
struct Bound {
  const char* key;
  double least;
  bool exclusive;  // > least rather than >=
};
constexpr Bound kBounds[] = {
    {"warmup", 0, false},       {"min_samples", 1, false}, {"max_samples", 1, false},
    {"target_rel_se", 0, true}, {"cap_ms", 0, true},       {"input_sets", 1, false},
    {"samples", 1, false},      {"rounds", 1, false},      {"min_rounds", 1, false},
    {"rounds_agree", 0, false}, {"floor_slack", 1, false},
};

// The settings `s` holds: the policy's keys (harness/timing.h) and the grader's own.
nlohmann::json grader_keys(const TimingSettings& s) {
  nlohmann::json j = s.policy;
  j["rounds"] = s.rounds;
  j["min_rounds"] = s.min_rounds;
  j["rounds_agree"] = s.rounds_agree;
  j["floor_slack"] = s.floor_slack;
  return j;
}

// The settings of one part kind, with their defaults.
nlohmann::json kind_defaults() {
  const TimingSettings d;
  return grader_keys(d);
}

// Lays the settings `obj` (at `where`) gives over `s`.
void apply(const nlohmann::json& obj, const std::string& where, const LabJsonReader& r,
           TimingSettings& s) {
  nlohmann::json j = grader_keys(s);
  const nlohmann::json defaults = kind_defaults();
  for (const auto& b : kBounds) {
    if (!obj.contains(b.key)) continue;
    const nlohmann::json& v = obj[b.key];
    const std::string path = key_path(where, b.key);
    const bool integer = defaults[b.key].is_number_integer();
    if (integer ? !v.is_number_integer() : !v.is_number())
      r.fail(path, integer ? "must be an integer" : "must be a number");
    const double x = v.get<double>();
    if (b.exclusive ? !(x > b.least) : !(x >= b.least))
      r.fail(path, std::string("must be ") + (b.exclusive ? "> " : ">= ") +
                       nlohmann::json(b.least).dump());
    j[b.key] = v;
  }
  s.policy = j.get<TimingPolicy>();
  s.rounds = j["rounds"].get<int>();
  s.min_rounds = j["min_rounds"].get<int>();
  s.rounds_agree = j["rounds_agree"].get<double>();
  s.floor_slack = j["floor_slack"].get<double>();
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
  LabTiming t;
  if (timing.is_null()) return t;
  std::vector<std::string> kind_keys;
  const nlohmann::json defaults = kind_defaults();
  for (const auto& [key, v] : defaults.items()) kind_keys.push_back(key);
  std::vector<std::string> lab_keys = kind_keys;
  lab_keys.insert(lab_keys.end(), {"work", "work_unit", "ceiling_per_s", "gpu", "cpu"});
  r.only_keys(timing, "timing", lab_keys);

  TimingSettings base;
  apply(timing, "timing", r, base);
  if (timing.contains("work")) {
    if (!timing["work"].is_string()) r.fail("timing.work", "must be a string");
    base.work = timing["work"].get<std::string>();
  }
  if (timing.contains("work_unit")) base.work_unit = r.str(timing, "work_unit", "timing");
  const nlohmann::json none = nlohmann::json::object();
  const nlohmann::json& ceiling = timing.contains("ceiling_per_s") ? timing["ceiling_per_s"] : none;
  r.only_keys(ceiling, "timing.ceiling_per_s", {"gpu", "cpu"});

  for (const char* kind : {"gpu", "cpu"}) {
    TimingSettings& s = std::string(kind) == "gpu" ? t.gpu : t.cpu;
    s = base;
    const std::string where = std::string("timing.") + kind;
    if (timing.contains(kind)) {
      r.only_keys(timing[kind], where, kind_keys);
      apply(timing[kind], where, r, s);
    }
    check_samples(s, timing.contains(kind) ? where : "timing", r);
    if (ceiling.contains(kind)) {
      s.ceiling_per_s = r.num(ceiling, kind, "timing.ceiling_per_s");
      if (!(s.ceiling_per_s > 0))
        r.fail(std::string("timing.ceiling_per_s.") + kind, "must be > 0");
    }
  }
  return t;
}

}  // namespace gpulab
