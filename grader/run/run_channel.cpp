#include "run/run_channel.h"

#include <cmath>

#include "channel_protocol.h"
#include "run/run_json.h"
#include "runner_flags.h"
#include "runner_protocol.h"

namespace gpulab {

namespace {

// More than any run hands over (outputs, and samples' outputs): past it the run floods.
constexpr size_t kMaxOutputs = 256;

// The message as a JSON object (read on the channel's budget, run_json.h); null where it is not
// one (spelt nlohmann::json(nullptr): json 3.10 converts both ways, which GCC 11 finds ambiguous).
nlohmann::json parse_message(const std::string& bytes) {
  nlohmann::json j = parse_run_json(bytes, kChannelMessageMax, "message").value;
  return j.is_object() ? j : nlohmann::json(nullptr);
}

// A whole number in [0, 2^31) at `key`; -1 where there is none.
long long count_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return -1;
  const long long v = it->get<long long>();
  return v >= 0 && v < (1LL << 31) ? v : -1;
}

// A finite number >= 0 at `key`; -1 where there is none.
double time_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return -1;
  const double v = it->get<double>();
  return std::isfinite(v) && v >= 0 ? v : -1;
}

std::string answer(const char* key, const nlohmann::json& value) {
  return nlohmann::json{{key, value}}.dump(-1, ' ', false,
                                           nlohmann::json::error_handler_t::replace);
}

// What the run's code did, for the student: only it can send what the harness never does.
const char* const kYourCode =
    " gpulab's harness never sends that: did your code write to gpulab's descriptor 3?";

}  // namespace

RunChannel::RunChannel(OutputTurns outputs, size_t max_output_bytes, SampleStage* stage)
    : allowed_(std::move(outputs)), max_output_bytes_(max_output_bytes), stage_(stage) {}

std::string RunChannel::refuse(const std::string& why) {
  if (problem_.empty()) problem_ = why;
  return answer(kMsgError, problem_);
}

std::string RunChannel::on_message(ChannelMessage& m) {
  if (!problem_.empty()) return answer(kMsgError, problem_);  // failed already: say so again
  if (ended_) return refuse(std::string("the run sent gpulab more after its record.") + kYourCode);
  if (m.too_long || m.too_many_fds)
    return refuse(std::string("the run sent gpulab a message larger than any of its own.") +
                  kYourCode);
  const nlohmann::json message = parse_message(m.bytes);
  if (message.is_null() || message.size() == 0)
    return refuse(std::string("the run sent gpulab a message it cannot read.") + kYourCode);
  if (message.contains(kMsgOutput)) return output(message, m);
  if (!m.fds.empty())
    return refuse(std::string("the run sent gpulab a descriptor with a message that carries "
                              "none.") +
                  kYourCode);
  if (message.contains(kMsgAsk)) return ask(message, *m.clock);
  if (message.contains(kMsgDone)) return done(message, *m.clock);
  if (message.contains(kMsgRecord)) return record(message);
  return refuse(std::string("the run sent gpulab a message of a kind it does not know.") +
                kYourCode);
}

std::string RunChannel::output(const nlohmann::json& message, ChannelMessage& m) {
  const nlohmann::json& name = message[kMsgOutput];
  const auto turn = name.is_string() ? allowed_.find(name.get<std::string>()) : allowed_.end();
  if (turn == allowed_.end() || m.fds.size() != 1 || outputs_->names().size() >= kMaxOutputs)
    return refuse("the run handed gpulab an output it does not take" +
                  (name.is_string() ? " (\"" + name.get<std::string>().substr(0, 64) + "\")"
                                    : std::string()) +
                  "." + kYourCode);
  const std::string& named = turn->first;
  const int handed = stage_ ? stage_->handed_over() : 0;
  if (turn->second == 0 && handed > 0)
    return refuse("the run handed gpulab its output \"" + named +
                  "\" after asking for timed sample " + std::to_string(handed) +
                  ": a run's own outputs come before its samples." + kYourCode);
  if (turn->second > 0 && (!sample_open_ || turn->second != handed))
    return refuse("the run handed gpulab the output \"" + named + "\" of timed sample " +
                  std::to_string(turn->second) +
                  " outside that sample's turn: a sample's outputs come after gpulab hands its "
                  "inputs over and before the run says it is done." +
                  kYourCode);
  if (const std::string why = outputs_->add(named, std::move(m.fds[0]), max_output_bytes_);
      !why.empty())
    return refuse("the run handed gpulab an output it cannot trust: " + why + "." + kYourCode);
  return "";
}

std::string RunChannel::ask(const nlohmann::json& message, const ChildClock& clock) {
  const long long k = count_at(message, kMsgAsk);
  if (!stage_)
    return refuse(std::string("the run asked for a timed sample, but it is not a timed run.") +
                  kYourCode);
  const std::string asked = message[kMsgAsk].dump().substr(0, 16);
  if (sample_open_)
    return refuse("the run asked for timed sample " + asked + " before sample " +
                  std::to_string(stage_->handed_over()) + ", handed over already, was done." +
                  kYourCode);
  if (k != stage_->handed_over() + 1)
    return refuse("the run asked for timed sample " + asked +
                  " where gpulab's harness asks for sample " +
                  std::to_string(stage_->handed_over() + 1) + " next." + kYourCode);
  const std::string got = stage_->answer(std::to_string(k));
  if (!stage_->problem().empty()) return refuse(stage_->problem());
  sample_open_ = true;
  // The outside clock starts as the answer goes: the sample's inputs exist from now on.
  asked_cpu_s_ = clock.cpu_s();
  asked_wall_s_ = clock.wall_s();
  return answer(kMsgSample, std::stoll(got));
}

std::string RunChannel::done(const nlohmann::json& message, const ChildClock& clock) {
  // The outside clock stops as the message arrives: the sample's outputs are the grader's.
  const double wall_s = clock.wall_s(), cpu_s = clock.cpu_s();
  const long long k = count_at(message, kMsgDone);
  const double ms = time_at(message, kMsgDoneMs), cpu_ms = time_at(message, kMsgDoneCpuMs);
  if (!stage_ || !sample_open_ || k != stage_->handed_over() || ms < 0 || cpu_ms < 0)
    return refuse(std::string("the run said a timed sample was done that gpulab had not handed "
                              "over, or without its times.") +
                  kYourCode);
  // Every output of the sample is the grader's before its end: none can be worked on after it.
  for (const auto& [named, turn] : allowed_)
    if (turn == k && !outputs_->has(named))
      return refuse("the run said timed sample " + std::to_string(k) +
                    " was done before handing over its output \"" + named + "\"." + kYourCode);
  sample_open_ = false;
  samples_.push_back({ms, cpu_ms, (wall_s - asked_wall_s_) * 1e3, (cpu_s - asked_cpu_s_) * 1e3});
  return answer(kMsgOk, k);
}

std::string RunChannel::record(const nlohmann::json& message) {
  const nlohmann::json& r = message[kMsgRecord];
  if (const std::string why = record_problem(r); !why.empty())
    return refuse("the run's record " + why + "." + kYourCode);
  // A call that failed in a timed sample ends the run there, its record saying why: the run has
  // failed either way, so the record's word is taken. Any other record ends no open sample.
  const bool failed = r.value("status", "") == runner_status(RunnerExit::failed);
  if (sample_open_ && !failed)
    return refuse("the run ended a timed sample without its end." + std::string(kYourCode));
  record_ = r;
  ended_ = true;
  return "";
}

namespace {

// "" when `j` (at `where`) is of `type`: "string", "number", "array" or "object".
std::string typed(const nlohmann::json& j, const std::string& where, const char* type) {
  const std::string t = type;
  const bool ok = t == "string"   ? j.is_string()
                  : t == "number" ? j.is_number()
                  : t == "array"  ? j.is_array()
                                  : j.is_object();
  return ok ? ""
            : "has \"" + where + "\" of another type than " + (t == "array" ? "an " : "a ") + t;
}

// "" when a timing (TimingResult's JSON) at `where` has its fields' types.
std::string timing_problem(const nlohmann::json& t, const std::string& where) {
  for (const auto& [key, type] : {std::pair{"median_ms", "number"}, std::pair{"rel_se", "number"},
                                  std::pair{"samples_ms", "array"}})
    if (t.contains(key))
      if (std::string why = typed(t[key], where + "." + key, type); !why.empty()) return why;
  return "";
}

}  // namespace

std::string record_problem(const nlohmann::json& r) {
  if (!r.is_object()) return "is not a JSON object";
#define GPULAB_RECORD_FIELD_TYPE(key, type) \
  if (r.contains(key))                      \
    if (std::string why = typed(r[key], key, #type); !why.empty()) return why;
  GPULAB_RECORD_FIELDS(GPULAB_RECORD_FIELD_TYPE)
#undef GPULAB_RECORD_FIELD_TYPE
  if (!r.contains("status")) return "has no status";
  if (r.contains("timing"))
    if (std::string why = timing_problem(r["timing"], "timing"); !why.empty()) return why;
  if (r.contains("baseline")) {
    const nlohmann::json& b = r["baseline"];
    if (!b.contains("timing") || !b["timing"].is_object())
      return "has a \"baseline\" without its timing";
    if (b.contains("name"))
      if (std::string why = typed(b["name"], "baseline.name", "string"); !why.empty()) return why;
    if (std::string why = timing_problem(b["timing"], "baseline.timing"); !why.empty()) return why;
  }
  return "";
}

}  // namespace gpulab
