#include "sim_report.h"

#include <map>

namespace gpulab {

namespace {

constexpr const char* kWhat = "the CPU backend's report of this run ";
// What the student can do about it: findings are the CPU backend's, not the program's.
constexpr const char* kAdvice =
    ". Leave the descriptors and files your program did not open alone, and end it by "
    "returning from your functions; the CPU backend's findings cannot be switched off.";

long count_of(const nlohmann::json& finding) {
  const auto it = finding.find("count");
  return it != finding.end() && it->is_number_integer() ? it->get<long>() : 1;
}

}  // namespace

SimReport read_sim_report(const std::string& bytes, const std::string& key, bool truncated,
                          bool finished) {
  SimReport r;
  std::map<std::string, size_t> index;  // a finding without its count -> its place in findings
  size_t received = 0;                  // findings lines before the end record
  long records = -1;                    // the end record's count of them
  bool ended = false;
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
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) {
      problem("holds a line the CPU backend did not write: your program wrote to it");
      continue;
    }
    if (j.contains("end")) {
      ended = true;
      const nlohmann::json& end = j["end"];
      const bool whole = end.is_object() && end.value("key", nlohmann::json()) == key &&
                         end.value("records", nlohmann::json()).is_number_integer() &&
                         end.value("launches", nlohmann::json()).is_number_integer();
      if (!whole) {
        problem("ends with a record the CPU backend did not write: your program wrote it");
        continue;
      }
      records = end["records"].get<long>();
      r.launches = end["launches"].get<long>();
      continue;
    }
    ++received;
    nlohmann::json bare = j;
    bare.erase("count");
    const auto [at, fresh] = index.emplace(bare.dump(), r.findings.size());
    if (fresh)
      r.findings.push_back(j);
    else if (count_of(j) > count_of(r.findings[at->second]))
      r.findings[at->second]["count"] = count_of(j);
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
