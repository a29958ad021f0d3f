#include "run/sim_report.h"

#include <algorithm>
#include <map>

#include "run/run_json.h"

namespace gpulab {

namespace {

constexpr const char* kWhat = "the CPU backend's report of this run ";
// What the student can do about it: findings are the CPU backend's, not the program's.
constexpr const char* kAdvice =
    ". Leave the descriptors and files your program did not open alone, and end it by "
    "returning from your functions; the CPU backend's findings cannot be switched off.";

long long count_of(const nlohmann::json& finding) {
  return int_field(finding, "count").value_or(1);
}

}  // namespace

SimReport read_sim_report(const std::string& bytes, const std::string& key, bool truncated,
                          bool finished) {
  SimReport r;
  std::map<std::string, size_t> index;  // a finding without its count -> its place in findings
  size_t received = 0;                  // findings lines before the end record
  long records = -1;                    // the end record's count of them
  bool ended = false;
  long long call = -1;  // the batch's call the findings are made in (the last mark), or none (-1)
  const auto problem = [&](const std::string& what) {
    if (r.problem.empty()) r.problem = kWhat + what + kAdvice;
  };
  for (size_t start = 0; start < bytes.size();) {
    const size_t newline = bytes.find('\n', start);
    if (newline == std::string::npos) {  // as a run killed mid-record leaves it
      problem("ends in the middle of a line: your program wrote to it");
      break;
    }
    const std::string line = bytes.substr(start, newline - start);
    start = newline + 1;
    if (ended) {
      problem("goes on after its end: your program wrote to it");
      break;
    }
    // A line is at most the whole report; nested deeper than the runtime's records, refused
    // before it is built (run_json.h).
    const nlohmann::json j = parse_run_json(line, kSimReportLimit, "a line").value;
    if (!j.is_object()) {
      problem("holds a line the CPU backend did not write: your program wrote to it");
      continue;
    }
    if (j.contains("end")) {
      ended = true;
      static const nlohmann::json kNoEnd;  // null: it has none of the fields below
      const nlohmann::json& end = *object_field(j, "end").value_or(&kNoEnd);
      const RunField<long long> end_records = int_field(end, "records");
      const RunField<long long> end_launches = int_field(end, "launches");
      if (string_field(end, "key").value != key || !end_records.value || !end_launches.value) {
        problem("ends with a record the CPU backend did not write: your program wrote it");
        continue;
      }
      records = static_cast<long>(end_records.value_or(-1));
      r.launches = static_cast<long>(end_launches.value_or(-1));
      continue;
    }
    ++received;
    if (j.contains("cost")) {
      r.costs.push_back(j["cost"]);
      continue;
    }
    if (j.contains(kCallMarkKey) && j.size() == 1) {
      call = int_field(j, kCallMarkKey).value_or(-2);
      if (call < -1)
        problem("holds a call's mark the CPU backend did not write: your program wrote it");
      continue;
    }
    nlohmann::json bare = j;
    bare.erase("count");
    const auto [at, fresh] = index.emplace(bare.dump(), r.findings.size());
    if (fresh)
      r.findings.push_back(j);
    else if (count_of(j) > count_of(r.findings[at->second]))
      r.findings[at->second]["count"] = count_of(j);
    if (call >= 0) {
      nlohmann::json& calls = r.findings[at->second][kSimCallsKey];
      if (!calls.is_array()) calls = nlohmann::json::array();
      if (std::find(calls.begin(), calls.end(), call) == calls.end()) calls.push_back(call);
    }
  }
  if (truncated)
    problem("was longer than gpulab reads (" + std::to_string(kSimReportLimit >> 20) + " MiB)");
  if (!finished) return r;
  if (!ended)
    problem(
        "was cut off: your program closed or replaced it, or ended without going through "
        "exit(), so gpulab cannot tell what the CPU backend found");
  else if (records >= 0 && static_cast<size_t>(records) != received)
    problem("holds " + std::to_string(received) + " findings where the CPU backend sent " +
            std::to_string(records) + ": your program read from it or wrote to it");
  return r;
}

}  // namespace gpulab
