#include "sim_findings_text.h"

#include <algorithm>
#include <vector>

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
  // The findings that fail the dataset first, each group in the order found: a missing
  // __syncthreads() is found inside a warp (a warning whose advice is __syncwarp) as often as
  // between warps (the race that fails), and the student should read the race's advice first.
  std::vector<const nlohmann::json*> order;
  for (const auto& f : found) order.push_back(&f);
  std::stable_partition(order.begin(), order.end(),
                        [](const nlohmann::json* f) { return fails_dataset(*f); });
  std::string out;
  const size_t shown = std::min<size_t>(order.size(), 5);
  for (size_t i = 0; i < shown; ++i) {
    const auto& f = *order[i];
    std::string message = f.value("message", std::string("(no message)"));
    for (const auto& prefix : strip) message = without(message, prefix);
    out += "\n  gpulab sim, " + f.value("severity", std::string("finding")) + ": " + message;
    // Where the finding was made: a message names the other access of a race, not this one.
    std::vector<std::string> notes;
    const auto file = f.find("file");
    const auto line = f.find("line");
    if (file != f.end() && file->is_string() && !file->get<std::string>().empty() &&
        line != f.end() && line->is_number_integer() && line->get<long>() > 0) {
      std::string at = file->get<std::string>();
      for (const auto& prefix : strip) at = without(at, prefix);
      notes.push_back("at " + at + ":" + std::to_string(line->get<long>()));
    }
    const long count = f.value("count", 1L);
    if (count > 1) notes.push_back(std::to_string(count) + " times");
    for (size_t k = 0; k < notes.size(); ++k) out += (k ? ", " : " (") + notes[k];
    if (!notes.empty()) out += ")";
  }
  if (found.size() > shown)
    out += "\n  ... and " + std::to_string(found.size() - shown) + " more findings";
  return out;
}

}  // namespace gpulab
