#include "core/sim_finding_sites.h"

#include <algorithm>
#include <fstream>
#include <optional>

#include "text/safe_text.h"
#include "text/text_edits.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// A finding's line beyond this is not looked for: no submission is that long, and a forged one
// must not make the grader read a large file through.
constexpr int kLineLimit = 100000;
// The places kept of one test: a run that forges findings by the thousand makes no larger report.
constexpr size_t kSiteLimit = 50;

// The file `relative` names inside `root`: a regular file reached through folders alone, with
// no "..", "." or absolute part; none otherwise.
std::optional<fs::path> inside(const fs::path& root, const std::string& relative) {
  const fs::path rel(relative);
  if (relative.empty() || rel.is_absolute() || relative.find('\0') != std::string::npos)
    return std::nullopt;
  fs::path at = root;
  for (const auto& part : rel) {
    if (part.empty() || part == "." || part == "..") return std::nullopt;
    at /= part;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(at, ec)) || ec) return std::nullopt;
  }
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(at, ec))) return std::nullopt;
  return at;
}

// Line `line` (from 1) of `file`, trimmed and cut short; empty where there is none.
std::string source_line(const fs::path& file, int line) {
  if (line < 1 || line > kLineLimit) return "";
  std::ifstream in(file, std::ios::binary);
  std::string text;
  for (int i = 0; i < line; ++i)
    if (!std::getline(in, text)) return "";
  return quote_head(trimmed(text), kSourceLineLimit);
}

// The string at `key`; empty where there is none.
std::string text_at(const nlohmann::json& f, const char* key) {
  const auto v = f.find(key);
  return v != f.end() && v->is_string() ? v->get<std::string>() : "";
}

SimFindingSite site_of(const nlohmann::json& f, const fs::path& submission,
                       const std::vector<std::string>& strip) {
  SimFindingSite s;
  s.kind = quote_head(text_at(f, "kind"), kSourceLineLimit);
  const std::string raw = text_at(f, "file");
  const auto line = f.find("line");
  if (line != f.end() && line->is_number_integer() && *line > 0 && *line <= kLineLimit)
    s.line = line->get<int>();
  s.file = raw;
  for (const auto& prefix : strip)
    if (!prefix.empty() && s.file.rfind(prefix, 0) == 0) {
      s.file.erase(0, prefix.size());
      break;
    }
  const std::string mine = submission.string() + "/";
  if (raw.rfind(mine, 0) == 0)
    if (const auto at = inside(submission, raw.substr(mine.size())))
      s.source = source_line(*at, s.line);
  s.file = quote_head(s.file, kSourceLineLimit);
  return s;
}

}  // namespace

void add_sim_finding_sites(std::vector<SimFindingSite>& sites,
                           const std::vector<nlohmann::json>& found, const fs::path& submission,
                           const std::vector<std::string>& strip) {
  for (const auto& f : found) {
    if (sites.size() >= kSiteLimit) return;
    if (!f.is_object()) continue;
    SimFindingSite s = site_of(f, submission, strip);
    const bool known = std::any_of(sites.begin(), sites.end(), [&](const SimFindingSite& o) {
      return o.kind == s.kind && o.file == s.file && o.line == s.line;
    });
    if (!known) sites.push_back(std::move(s));
  }
}

}  // namespace gpulab
