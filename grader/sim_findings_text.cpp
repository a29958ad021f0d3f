#include "sim_findings_text.h"

#include <algorithm>

#include "sim_finding_kinds.h"

namespace gpulab {

namespace {

// Each occurrence of `prefix` in `s` removed.
std::string without(std::string s, const std::string& prefix) {
  for (size_t at; !prefix.empty() && (at = s.find(prefix)) != std::string::npos;)
    s.erase(at, prefix.size());
  return s;
}

}  // namespace

bool fails_dataset(const nlohmann::json& f) {
  return sim_finding_fails(f.value("kind", ""));
}

std::string describe_sim_findings(const std::vector<nlohmann::json>& found,
                                  const std::vector<std::string>& strip) {
  std::string out;
  const size_t shown = std::min<size_t>(found.size(), 5);
  for (size_t i = 0; i < shown; ++i) {
    const auto& f = found[i];
    std::string message = f.value("message", std::string("(no message)"));
    for (const auto& prefix : strip) message = without(message, prefix);
    out += "\n  gpulab sim, " + f.value("severity", std::string("finding")) + ": " + message;
    const long count = f.value("count", 1L);
    if (count > 1) out += " (" + std::to_string(count) + " times)";
  }
  if (found.size() > shown)
    out += "\n  ... and " + std::to_string(found.size() - shown) + " more findings";
  return out;
}

}  // namespace gpulab
