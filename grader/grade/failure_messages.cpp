#include "grade/failure_messages.h"

#include <sstream>
#include <vector>

#include "grade/error_map_files.h"
#include "text/safe_text.h"
#include "text/text_edits.h"

namespace gpulab {

namespace {

bool dataset_line(const std::string& line) {
  return starts_with(line, "PASS ") || starts_with(line, "FAIL ");
}

// The dataset a "FAIL d: ..." line names.
std::string dataset_of(const std::string& line) {
  const size_t colon = line.find(':', 5);
  return line.substr(5, colon == std::string::npos ? std::string::npos : colon - 5);
}

// A line that says again what a kept line said: the whole line, or all after its own "who: "
// (a runner's "runner: <the message the grader already quoted>").
bool repeats(const std::string& line, const std::vector<std::string>& kept) {
  constexpr size_t kShortest = 20;  // short lines ("Its output:") repeat by chance
  if (line.size() < kShortest) return false;
  const size_t colon = line.find(": ");
  const std::string rest = colon == std::string::npos ? line : line.substr(colon + 2);
  for (const auto& k : kept)
    if (k.find(line) != std::string::npos ||
        (rest.size() >= kShortest && k.find(rest) != std::string::npos))
      return true;
  return false;
}

}  // namespace

std::vector<std::string> shortened_message(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(safe_text(output));
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::vector<std::string> kept, also_failed;
  // Where a line belongs: outside any dataset's lines, in the first failing dataset's, or in
  // a dataset's left out. An empty line ends a dataset's lines.
  enum { free, shown, left_out } in_block = free;
  bool shown_one = false;
  // "Its output:", kept only once something of that output is (the rest may repeat).
  bool output_heading = false;
  for (const auto& line : lines) {
    if (line.empty()) {
      in_block = free;
      output_heading = false;
      continue;
    }
    if (line == "Its output:") {
      output_heading = true;
      continue;
    }
    if (dataset_line(line)) {
      output_heading = false;
      const bool failed = starts_with(line, "FAIL ");
      if (failed && shown_one) also_failed.push_back(dataset_of(line));
      in_block = failed && !shown_one ? shown : left_out;
      shown_one = shown_one || failed;
      if (in_block == left_out) continue;
    } else if (in_block == left_out && line.rfind(kErrorMapNote, 0) != 0) {
      continue;  // but where a map of the error is, which names its dataset
    }
    if (repeats(line, kept)) continue;
    if (output_heading) kept.push_back("Its output:");
    output_heading = false;
    kept.push_back(line);
  }
  std::vector<std::string> out = std::move(kept);
  if (!also_failed.empty()) {
    std::string line = "also failed:";
    for (size_t i = 0; i < also_failed.size(); ++i) line += (i ? ", " : " ") + also_failed[i];
    out.push_back(line);
  }
  for (auto& line : out)
    if (line.size() > kFailureLineBytes)
      line = std::string(utf8_head(line, kFailureLineBytes)) + "...";
  if (out.size() > kFailureLinesShown) {
    const size_t more = out.size() - kFailureLinesShown + 1;
    out.resize(kFailureLinesShown - 1);
    out.push_back("... (" + std::to_string(more) +
                  " more lines: --out FILE writes the whole message)");
  }
  return out;
}

std::string failure_messages(const Report& report, const TerminalStyle& style) {
  struct Block {
    std::vector<std::string> names;
    const std::string* output;
  };
  std::vector<Block> blocks;
  for (const auto& t : report.tests) {
    if (t.visibility == "hidden" || t.max_score <= 0 || t.passed || t.output.empty()) continue;
    bool joined = false;
    for (auto& b : blocks)
      if (*b.output == t.output) {
        b.names.push_back(t.name);
        joined = true;
      }
    if (!joined) blocks.push_back({{t.name}, &t.output});
  }
  std::string s;
  for (const auto& b : blocks) {
    std::string names;
    for (size_t i = 0; i < b.names.size(); ++i) names += (i ? "; " : "") + safe_text(b.names[i]);
    s += "\n" + style.fail("FAIL") + " " + style.heading(names) + "\n";
    for (const auto& line : shortened_message(*b.output)) s += "    " + line + "\n";
  }
  return s;
}

}  // namespace gpulab
