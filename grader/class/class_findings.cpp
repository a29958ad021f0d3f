#include "class/class_findings.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "text/safe_text.h"
#include "text/text_edits.h"

namespace gpulab {

namespace {

// The longest message kept, in bytes: a line a reader takes in, and a grouping key no student
// can make large.
constexpr size_t kMessageLimit = 300;

bool is_digit(const std::string& s, size_t i) {
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
}
bool is_word(const std::string& s, size_t i) {
  return i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_');
}
bool is_space(const std::string& s, size_t i) {
  return i < s.size() && std::isspace(static_cast<unsigned char>(s[i]));
}

// Where the number starting at `i` ends; `i` where none starts there. A sign or a leading
// point counts only where no word goes before it ("odd-13x7" keeps its "-").
size_t number_end(const std::string& s, size_t i) {
  const bool after_word = i > 0 && is_word(s, i - 1);
  size_t j = i;
  if (!after_word && (s[j] == '-' || s[j] == '+') &&
      (is_digit(s, j + 1) || (j + 1 < s.size() && s[j + 1] == '.' && is_digit(s, j + 2))))
    ++j;
  if (s[j] == '0' && j + 2 < s.size() && (s[j + 1] == 'x' || s[j + 1] == 'X') &&
      std::isxdigit(static_cast<unsigned char>(s[j + 2]))) {  // an address
    j += 2;
    while (j < s.size() && std::isxdigit(static_cast<unsigned char>(s[j]))) ++j;
    return j;
  }
  const bool point_first = s[j] == '.' && is_digit(s, j + 1) && (j > i || !after_word);
  if (!is_digit(s, j) && !point_first) return i;
  while (is_digit(s, j)) ++j;
  if (j < s.size() && s[j] == '.' && is_digit(s, j + 1))
    for (++j; is_digit(s, j);) ++j;
  if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
    size_t k = j + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    if (is_digit(s, k))
      for (j = k; is_digit(s, j);) ++j;
  }
  return j;
}

// `text`'s runs of white space as one space, none at either end.
std::string collapsed(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i)
    if (!is_space(text, i))
      out += text[i];
    else if (!out.empty() && !is_space(text, i + 1))
      out += ' ';
  return trimmed(out);
}

// Whether `line` of a dataset's lines is a finding that failed it: an error of the CPU backend
// ("gpulab sim, error: ...", core/sim_findings_text.cpp) or of compute-sanitizer
// ("compute-sanitizer memcheck, error: ...", run/compute_sanitizer.cpp), not a warning.
bool failing_finding(const std::string& line) {
  const std::string t = trimmed(line);
  return (t.rfind("gpulab sim, ", 0) == 0 || t.rfind("compute-sanitizer ", 0) == 0) &&
         t.find(", error: ") != std::string::npos;
}

// Why the first dataset of `output` that failed ("FAIL <dataset>: <message>") failed: the first
// finding under its line that failed it, which is the cause where the outputs were right, and
// most often where they were wrong too; else its message. Empty where none failed.
std::string first_failure(const std::string& output) {
  std::istringstream in(output);
  std::string message;
  bool in_failed = false;  // among the lines of the first failed dataset
  for (std::string line; std::getline(in, line);) {
    const bool failed = line.rfind("FAIL ", 0) == 0;
    if (failed || line.rfind("PASS ", 0) == 0) {
      if (in_failed) break;  // the next dataset's line
      if (!failed) continue;
      in_failed = true;
      const auto colon = line.find(": ");
      message = colon == std::string::npos ? line.substr(5) : line.substr(colon + 2);
    } else if (in_failed && failing_finding(line)) {
      return trimmed(line);
    }
  }
  return message;
}

// From the first compiler error of `output` ("...: error: ..."), the word "error" on; empty
// where none (its path and line are the student's folder's, which group nothing).
std::string first_error(const std::string& output) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (const auto at = line.find("error: "); at != std::string::npos) return line.substr(at);
  return "";
}

std::string first_line(const std::string& output) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (!trimmed(line).empty()) return line;
  return "";
}

template <typename T>
void most_students_first(std::vector<T>& groups) {
  std::stable_sort(groups.begin(), groups.end(),
                   [](const T& a, const T& b) { return a.students > b.students; });
}

}  // namespace

std::string failure_message(const Report& report, const Test& test) {
  std::string m = first_failure(test.output);
  if (m.empty() && test.on_hidden_datasets && test.visibility != "hidden")
    for (const auto& detail : report.tests)
      if (&detail != &test && detail.visibility == "hidden" && detail.tags == test.tags)
        if (m = first_failure(detail.output); !m.empty()) break;
  if (m.empty()) m = first_error(test.output);
  if (m.empty()) m = first_line(test.output);
  return quote_head(trimmed(m), kMessageLimit);
}

std::string message_pattern(const std::string& message) {
  std::string out;
  for (size_t i = 0; i < message.size();) {
    if (const size_t end = number_end(message, i); end > i) {
      out += '#';
      i = end;
    } else {
      out += message[i++];
    }
  }
  return collapsed(out);
}

LabFindings lab_findings(const ClassTable& table, const std::string& lab) {
  LabFindings view;
  view.lab = lab;
  std::vector<std::string> order;  // the class table's columns, then tests only some reports have
  for (const auto& part : table.parts(lab))
    for (const auto& test : table.test_names(lab, part)) order.push_back(test);
  std::map<std::string, TestFailures> tests;
  std::map<std::string, std::map<std::string, MessageGroup>> messages;   // by test, by pattern
  using FindingKey = std::tuple<std::string, std::string, std::string>;  // part, kind, key
  std::map<FindingKey, FindingGroup> findings;
  for (const auto& student : table.students()) {
    const Report* r = table.find(student, lab);
    if (!r || !r->scored()) continue;  // no score: nothing it says is a verdict
    view.graded += r->graded();
    std::set<std::string> tests_seen;  // each counts once per student
    std::set<FindingKey> findings_seen;
    for (const auto& t : r->tests) {
      for (const auto& site : t.sim_findings) {
        const std::string where =
            site.file + (site.line > 0 ? ":" + std::to_string(site.line) : std::string());
        const std::string code = collapsed(site.source);
        const FindingKey key{part_of(t), site.kind, code.empty() ? where : code};
        if (!findings_seen.insert(key).second) continue;
        FindingGroup& g = findings[key];
        if (!g.students++) g = {part_of(t), site.kind, std::get<2>(key), where, site.source, 1};
      }
      if (t.info || t.max_score <= 0 || !tests_seen.insert(t.name).second) continue;
      if (std::find(order.begin(), order.end(), t.name) == order.end()) order.push_back(t.name);
      TestFailures& f = tests[t.name];
      f.test = t.name;
      ++f.of;
      if (t.passed) continue;
      ++f.failed;
      const std::string m = failure_message(*r, t);
      MessageGroup& g = messages[t.name][message_pattern(m)];
      if (!g.students++) g = {message_pattern(m), m, 1};
    }
  }
  for (const auto& name : order) {
    const auto it = tests.find(name);
    if (it == tests.end()) continue;
    TestFailures f = it->second;
    for (const auto& [pattern, g] : messages[name]) f.messages.push_back(g);
    most_students_first(f.messages);
    view.tests.push_back(std::move(f));
  }
  for (const auto& [key, g] : findings) view.findings.push_back(g);
  most_students_first(view.findings);
  return view;
}

}  // namespace gpulab
