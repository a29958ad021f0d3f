#include "core/sim_findings_text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "core/sim_finding_kinds.h"
#include "text/text_edits.h"

namespace gpulab {

namespace {

// `s` with each hexadecimal address (0x...) as "0x?": two findings that differ only in where
// memory happened to lie are one to the student.
std::string addresses_masked(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "0x") == 0 && i + 2 < s.size() &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += "0x?";
      for (i += 2; i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i])); ++i) {
      }
    } else {
      out += s[i++];
    }
  }
  return out;
}

// One line as the student reads it: its words, where it was made, and how often.
struct Shown {
  std::string kind;
  int rank;  // told in this order (rank_of)
  bool fails;
  std::string message;  // paths cut
  std::string at;       // "h.cu:12", or empty
  long count;
};

// What the student should read first: a finding that stopped the kernel, then the races and lost
// updates, then uninitialised reads (often a race's symptom: a thread reading shared memory
// another has not yet written, for want of a barrier), then what only warns.
int rank_of(const std::string& kind) {
  const SimFindingKind* k = sim_finding_kind(kind);
  if (!k) return 0;  // a kind the table lacks fails, as an error would
  if (!k->fails_grading) return 3;
  if (k->error) return 0;
  return kind == "uninitialised_read" ? 2 : 1;
}

Shown shown(const nlohmann::json& f, const std::vector<std::string>& strip) {
  const std::string kind = f.value("kind", std::string());
  Shown s{kind,
          rank_of(kind),
          sim_finding_fails(kind),
          f.value("message", std::string("(no message)")),
          {},
          std::max(1L, f.value("count", 1L))};
  for (const auto& prefix : strip) s.message = without(s.message, prefix);
  // Where the finding was made: a message names the other access of a race, not this one.
  const auto file = f.find("file");
  const auto line = f.find("line");
  if (file != f.end() && file->is_string() && !file->get<std::string>().empty() &&
      line != f.end() && line->is_number_integer() && line->get<long>() > 0) {
    std::string at = file->get<std::string>();
    for (const auto& prefix : strip) at = without(at, prefix);
    s.at = at + ":" + std::to_string(line->get<long>());
  }
  return s;
}

}  // namespace

bool fails_dataset(const nlohmann::json& f) {
  return sim_finding_fails(f.value("kind", ""));
}

std::string describe_sim_findings(const std::vector<nlohmann::json>& found,
                                  const std::vector<std::string>& strip) {
  // Findings the student would read as the same line (the same kernel launched from two places,
  // or at other addresses) are one, their counts added.
  std::vector<Shown> lines;
  std::map<std::string, size_t> index;  // kind, place and masked words -> its line
  for (const auto& f : found) {
    Shown s = shown(f, strip);
    const std::string key = s.kind + "\n" + s.at + "\n" + addresses_masked(s.message);
    const auto [it, fresh] = index.emplace(key, lines.size());
    if (fresh)
      lines.push_back(std::move(s));
    else
      lines[it->second].count += s.count;
  }
  // A line whose read-modify-writes lose updates (lost_update) also meets its own updates of
  // other loop iterations, which the runtime tells as races; the lost update explains them, and
  // its advice (an atomic) fixes them.
  for (auto& s : lines)
    if (s.kind == "lost_update" && !s.at.empty())
      for (auto& r : lines)
        if (r.kind == "shared_race" && r.at == s.at && r.count > 0) {
          s.count += r.count;
          r.count = 0;
        }
  lines.erase(std::remove_if(lines.begin(), lines.end(), [](const Shown& s) { return !s.count; }),
              lines.end());
  // The findings that fail the dataset first, each rank in the order found (rank_of): a missing
  // __syncthreads() is found inside a warp (a warning whose advice is __syncwarp) as often as
  // between warps (the race that fails), and the student should read the race's advice first.
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Shown& a, const Shown& b) { return a.rank < b.rank; });
  std::string out;
  const size_t n = std::min<size_t>(lines.size(), 5);
  for (size_t i = 0; i < n; ++i) {
    const Shown& s = lines[i];
    // A finding that fails the dataset is an error to the student, whether or not it stopped
    // the kernel (the record's "severity" says only that).
    out += std::string("\n  gpulab sim, ") + (s.fails ? "error" : "warning") + ": " + s.message;
    std::vector<std::string> notes;
    if (!s.at.empty()) notes.push_back("at " + s.at);
    if (s.count > 1) notes.push_back(std::to_string(s.count) + " times");
    for (size_t k = 0; k < notes.size(); ++k) out += (k ? ", " : " (") + notes[k];
    if (!notes.empty()) out += ")";
  }
  if (lines.size() > n) out += "\n  ... and " + std::to_string(lines.size() - n) + " more findings";
  return out;
}

}  // namespace gpulab
