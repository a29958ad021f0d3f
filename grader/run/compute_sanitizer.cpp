#include "run/compute_sanitizer.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "text/safe_text.h"
#include "text/text_edits.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

// Each line of the tool's report starts with this.
constexpr std::string_view kPrefix = "=========";
// Distinct findings kept of one log, and the ones shown to the student.
constexpr size_t kFindingsKept = 64;
constexpr size_t kToolFindingsShown = 5;
// A field read from the log: enough for a long C++ signature's start.
constexpr size_t kFieldBytes = 200;

// How the tool's first line of a report reads, as a kind in gpulab's words: the one table.
// `starts`: the text the report's first line starts with (after any "Error: " or "Warning: ").
struct KindRule {
  const char* starts;
  const char* contains;  // also required in the line; "" for none
  const char* kind;
};
constexpr KindRule kKinds[] = {
    {"Invalid __", " read", "out-of-bounds read"},
    {"Invalid __", " write", "out-of-bounds write"},
    {"Invalid __", "", "invalid access"},
    {"Misaligned", "", "misaligned access"},
    {"Race reported between", "", "shared-memory race"},
    {"Barrier error", "", "sync hazard"},
    {"Invalid arguments", "", "sync hazard"},
    {"Uninitialized __", "", "uninitialized read"},
    {"Unused memory", "", "unused memory"},
};

std::string log_field(std::string_view s) {
  return safe_text(utf8_head(s, kFieldBytes));
}

// The line without the tool's prefix and the spaces after it; `indent` gets how many spaces
// there were (a report's first line has one, its details more).
std::string_view body(std::string_view line, size_t& indent) {
  line.remove_prefix(kPrefix.size());
  const size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos) {
    indent = line.size();
    return {};
  }
  indent = start;
  return line.substr(start);
}

// The number at the start of `s`, its thousands' commas skipped ("1,025"); -1 without one.
long leading_number(std::string_view s) {
  long n = -1;
  for (const char c : s) {
    if (c == ',' && n >= 0) continue;
    if (c < '0' || c > '9') break;
    n = (n < 0 ? 0 : n) * 10 + (c - '0');
    if (n > 1000000000L) break;
  }
  return n;
}

// A device function's short name from the tool's words for it: "void ns::f<int>(const int *)
// +0x70" is "f"; an address alone is no name.
std::string short_name(std::string fn) {
  if (fn.rfind("at ", 0) == 0) fn.erase(0, 3);
  for (const std::string anonymous : {"(anonymous namespace)::", "<unnamed>::"})
    for (size_t at; (at = fn.find(anonymous)) != std::string::npos;) fn.erase(at, anonymous.size());
  // Its parameters start at the first '(' outside template arguments.
  int depth = 0;
  for (size_t i = 0; i < fn.size(); ++i) {
    depth += fn[i] == '<' ? 1 : fn[i] == '>' ? -1 : 0;
    if ((fn[i] == '(' && depth == 0) || fn.compare(i, 3, "+0x") == 0) {
      fn.erase(i);
      break;
    }
  }
  // Its template arguments, then its namespaces and return type.
  if (!fn.empty() && fn.back() == '>') {
    depth = 0;
    for (size_t i = fn.size(); i-- > 0;) {
      depth += fn[i] == '>' ? 1 : fn[i] == '<' ? -1 : 0;
      if (depth == 0) {
        fn.erase(i);
        break;
      }
    }
  }
  if (const size_t colons = fn.rfind("::"); colons != std::string::npos) fn.erase(0, colons + 2);
  if (const size_t space = fn.rfind(' '); space != std::string::npos) fn.erase(0, space + 1);
  if (fn.rfind("0x", 0) == 0) return {};
  return log_field(fn);
}

// "path:line" of a location line, "at <function>+0x70 in <path>:<line>" (or the older
// "at 0x70 in <path>:<line>:<function>"); `function` gets the function's short name.
std::string location(std::string_view line, std::string& function) {
  // The path, its line, then the older format's function or the rest ("[4 hazards]").
  static const std::regex at_path(R"(^(\S+):(\d+)(?::(.*)|\s.*)?$)");
  for (size_t at = line.find(" in "); at != std::string_view::npos;
       at = line.find(" in ", at + 1)) {
    const std::string rest(utf8_head(line.substr(at + 4), 4 * kFieldBytes));
    std::smatch m;
    if (!std::regex_match(rest, m, at_path)) continue;
    function = short_name(m[3].matched ? m[3].str() : std::string(line.substr(0, at)));
    return log_field(m[1].str() + ":" + m[2].str());
  }
  return {};
}

// The hazard count a race's "and ... access at ... [N hazards]" line ends with; 1 without one.
long hazards(std::string_view line) {
  const size_t open = line.rfind('[');
  if (open == std::string_view::npos) return 1;
  const long n = leading_number(line.substr(open + 1));
  return n > 0 ? n : 1;
}

// The report that begins with `head` (the first line's text), or none (kind empty) where the
// line is one of the tool's own messages and no report of an error.
SanitizerFinding begin_finding(std::string_view head, const std::string& tool) {
  SanitizerFinding f;
  f.tool = tool;
  std::string_view text = head;
  for (const std::string_view level : {"Error: ", "Warning: "})
    if (text.substr(0, level.size()) == level) {
      f.fails = level == "Error: ";
      text.remove_prefix(level.size());
    }
  for (const KindRule& k : kKinds)
    if (text.substr(0, std::string_view(k.starts).size()) == k.starts &&
        text.find(k.contains) != std::string_view::npos) {
      f.kind = k.kind;
      break;
    }
  if (f.kind == "shared-memory race") {
    f.count = 0;
    // "Race reported between Write access at ... in f.cu:4" holds its first location.
    const size_t at = text.find(" at ");
    f.what = log_field(text.substr(0, at));
    if (at != std::string_view::npos) {
      std::string fn;
      const std::string first = location(text.substr(at + 1), fn);
      if (!first.empty()) f.where.push_back(first);
      f.function = fn;
    }
  } else {
    f.what = log_field(text);
  }
  return f;
}

// Where two reports are one finding: the same kind, words and places.
bool same(const SanitizerFinding& a, const SanitizerFinding& b) {
  return a.kind == b.kind && a.what == b.what && a.where == b.where;
}

void keep(std::vector<SanitizerFinding>& found, SanitizerFinding f) {
  if (f.kind.empty()) return;
  f.count = std::max(f.count, 1L);
  for (auto& g : found)
    if (same(g, f)) {
      g.count = std::min(g.count + f.count, 1000000000L);
      return;
    }
  if (found.size() < kFindingsKept) found.push_back(std::move(f));
}

}  // namespace

fs::path find_compute_sanitizer(const fs::path& nvcc, std::string& why) {
  std::error_code ec;
  const auto runnable = [&](const fs::path& p) {
    return !p.empty() && fs::is_regular_file(p, ec) &&
           (fs::status(p, ec).permissions() & fs::perms::owner_exec) != fs::perms::none;
  };
  if (const char* env = std::getenv("GPULAB_COMPUTE_SANITIZER"); env && *env) {
    if (runnable(env)) return env;
    why = std::string("GPULAB_COMPUTE_SANITIZER names ") + env + ", which is not a program";
    return {};
  }
  std::vector<fs::path> candidates;
  if (!nvcc.empty()) candidates.push_back(nvcc.parent_path() / "compute-sanitizer");
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty()) candidates.push_back(fs::path(dir) / "compute-sanitizer");
  }
  candidates.push_back("/usr/local/cuda/bin/compute-sanitizer");
  for (const auto& c : candidates)
    if (runnable(c)) return c;
  why =
      "compute-sanitizer was not found (beside nvcc, on PATH, or in /usr/local/cuda/bin): install "
      "the CUDA toolkit's compute-sanitizer (the cuda-sanitizer package of the toolkit's "
      "version, part of a full toolkit install), or set GPULAB_COMPUTE_SANITIZER to it";
  return {};
}

std::vector<std::string> sanitizer_command(const fs::path& sanitizer, const std::string& tool,
                                           const std::vector<std::string>& runner_argv) {
  std::vector<std::string> cmd = {sanitizer.string(),
                                  "--tool",
                                  tool,
                                  "--error-exitcode",
                                  std::to_string(kSanitizerErrorExit),
                                  "--print-limit",
                                  std::to_string(kSanitizerPrintLimit),
                                  "--show-backtrace",
                                  "no",
                                  "--report-api-errors",
                                  "no",
                                  "--log-file",
                                  kSanitizerLog};
  cmd.insert(cmd.end(), runner_argv.begin(), runner_argv.end());
  return cmd;
}

SanitizerReport parse_sanitizer_log(std::string_view log, const std::string& tool) {
  SanitizerReport r;
  log = log.substr(0, kSanitizerLogLimit);
  SanitizerFinding open;  // the report being read; kind empty when none
  bool race_open = false;
  size_t pos = 0;
  while (pos < log.size()) {
    const size_t end = std::min(log.find('\n', pos), log.size());
    std::string_view line = log.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // The tool's lines only: the runner's own output goes elsewhere, and a line of it that
    // reached the log without the prefix is no report.
    if (line.substr(0, kPrefix.size()) != kPrefix) continue;
    size_t indent = 0;
    const std::string_view text = body(line, indent);
    if (text.empty()) {  // a report ends with an empty line
      keep(r.findings, std::move(open));
      open = {};
      race_open = false;
      continue;
    }
    if (indent <= 1) {  // a report's first line, or the tool's own
      keep(r.findings, std::move(open));
      open = {};
      race_open = false;
      if (text == "COMPUTE-SANITIZER") {
        r.started = true;
      } else if (text.substr(0, 14) == "ERROR SUMMARY:") {
        r.summarized = true;
        r.errors = std::max(r.errors, leading_number(text.substr(15)));
      } else if (text.substr(0, 18) == "RACECHECK SUMMARY:") {
        // "1 hazard displayed (1 error, 0 warnings)"
        r.summarized = true;
        const size_t paren = text.find('(');
        if (paren != std::string_view::npos)
          r.errors = std::max(r.errors, leading_number(text.substr(paren + 1)));
      } else {
        open = begin_finding(text, tool);
        race_open = open.kind == "shared-memory race";
      }
      continue;
    }
    if (open.kind.empty()) continue;
    // A detail of the open report.
    if (race_open && text.substr(0, 4) == "and ") {
      std::string fn;
      const std::string other = location(text, fn);
      if (!other.empty() &&
          std::find(open.where.begin(), open.where.end(), other) == open.where.end() &&
          open.where.size() < 4)
        open.where.push_back(other);
      // Each "and" line counts its own hazards (begin_finding started the count at 0).
      open.count = std::min(open.count + hazards(text), 1000000000L);
    } else if (text.substr(0, 3) == "at " && open.where.empty()) {
      std::string fn;
      const std::string here = location(text, fn);
      if (!here.empty()) {
        open.where.push_back(here);
        open.function = fn;
      }
    }
  }
  keep(r.findings, std::move(open));
  return r;
}

bool sanitizer_fails(const SanitizerReport& r, int exit_code) {
  return r.errors > 0 || exit_code == kSanitizerErrorExit ||
         std::any_of(r.findings.begin(), r.findings.end(),
                     [](const SanitizerFinding& f) { return f.fails; });
}

std::string sanitizer_cut_short(const SanitizerReport& r, const ToolRunEnd& end) {
  if (end.timed_out) return "";
  if (end.signal != 0)
    return ", or the run under it, was killed by signal " + std::to_string(end.signal);
  if (end.exit_code > 128)  // the sandbox's report of a child a signal ended
    return ", or the run under it, was killed by signal " + std::to_string(end.exit_code - 128);
  if (r.started && !r.summarized) return " stopped before it finished (its log has no summary)";
  if (!r.started && end.runner_spoke)
    return " left no log of its own, though the run under it ran (its log was removed or "
           "rewritten)";
  return "";
}

std::string describe_sanitizer_findings(const std::vector<SanitizerFinding>& found,
                                        const std::vector<std::string>& strip) {
  std::string out;
  const size_t shown = std::min(found.size(), kToolFindingsShown);
  const auto place = [&](std::string p) {
    for (const auto& prefix : strip) p = without(p, prefix);
    return p;
  };
  for (size_t i = 0; i < shown; ++i) {
    const SanitizerFinding& f = found[i];
    out +=
        "\n  compute-sanitizer " + f.tool + ", " + (f.fails ? "error" : "warning") + ": " + f.kind;
    if (f.kind == "shared-memory race" && f.where.size() >= 2) {
      out += " between " + place(f.where[0]);
      for (size_t w = 1; w < f.where.size(); ++w)
        out += (w + 1 == f.where.size() ? " and " : ", ") + place(f.where[w]);
    } else if (!f.where.empty()) {
      out += " at " + place(f.where[0]);
    }
    if (!f.function.empty()) out += " in " + f.function;
    if (f.what != f.kind) out += " (" + f.what + ")";
    if (f.count > 1)
      out += " (" + std::to_string(f.count) +
             (f.kind == "shared-memory race" ? " hazards)" : " times)");
  }
  if (found.size() > shown)
    out += "\n  ... and " + std::to_string(found.size() - shown) + " more findings";
  return safe_text(out);
}

}  // namespace gpulab
