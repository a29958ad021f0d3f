// Each lab's write-up template (labs/<id>/REPORT.md, lab.json's "writeup"): worth 10-15% of the
// lab's autograded points, its sections the handout's "Things to measure" items with their
// numbers and titles, each with a table and a prompt, and every gpulab command it shows one that
// names the lab's own parts and datasets, so that a student can run it as written.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <sstream>

#include "lab/lab_config.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::LabConfig;
using test::contains;

// (number, title) of each numbered item of the handout's "Things to measure" section: a line
// "3. **Block size.** ...", the title without its final full stop.
std::vector<std::pair<int, std::string>> handout_items(const std::string& handout) {
  const size_t at = handout.find(". Things to measure and think about\n");
  REQUIRE(at != std::string::npos);
  const size_t end = handout.find("\n## ", at);
  std::istringstream lines(handout.substr(at, end == std::string::npos ? end : end - at));
  static const std::regex item(R"(^(\d+)\. \*\*(.+?)\.?\*\*)");
  std::vector<std::pair<int, std::string>> items;
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, m, item)) items.emplace_back(std::stoi(m[1]), m[2]);
  return items;
}

// The template's sections: "## 3. Block size", and the text of each up to the next.
struct Section {
  int number;
  std::string title, text;
};

std::vector<Section> template_sections(const std::string& text) {
  static const std::regex heading(R"(^## (\d+)\. (.+)$)");
  std::vector<Section> sections;
  std::istringstream lines(text);
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, m, heading))
      sections.push_back({std::stoi(m[1]), m[2], ""});
    else if (!sections.empty())
      sections.back().text += line + "\n";
  }
  return sections;
}

// The gpulab commands a template shows: lines of its fenced blocks and inline quotes.
std::vector<std::string> commands(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  bool fenced = false;
  static const std::regex inline_command("`(build/gpulab [^`]*)`");
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced && line.rfind("build/gpulab ", 0) == 0) {
      out.push_back(line);
      continue;
    }
    for (std::sregex_iterator m(line.begin(), line.end(), inline_command), end; m != end; ++m)
      out.push_back((*m)[1].str());
  }
  return out;
}

// Why `command` would not run as written for `lab`; "" where it would. What each command takes
// is its --help's (grader/cli/main.cpp); parts and datasets must be the lab's, a dataset one of a
// group a student may time or run (not hidden) that applies to a part the command names.
std::string command_problem(const std::string& command, const LabConfig& lab) {
  std::istringstream in(command);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  if (w.size() < 3 || w[2] != lab.id) return "does not name the lab " + lab.id;
  const std::map<std::string, std::set<std::string>> options = {
      {"time", {"--part", "--dataset", "--submission", "--backend"}},
      {"bench", {"--part"}},
      {"run", {"--part", "--dataset", "--submission", "--backend"}},
      {"rubric", {}}};
  const auto known = options.find(w[1]);
  if (known == options.end()) return "gpulab " + w[1] + " is not a command a write-up asks for";
  std::vector<std::string> parts;
  std::string dataset;
  for (size_t i = 3; i < w.size(); i += 2) {
    if (!known->second.count(w[i])) return w[i] + " is not an option of gpulab " + w[1];
    if (i + 1 >= w.size()) return w[i] + " has no value";
    if (w[i] == "--part") {
      if (!lab.part(w[i + 1])) return "no part " + w[i + 1];
      parts.push_back(w[i + 1]);
    }
    if (w[i] == "--dataset") dataset = w[i + 1];
    if (w[i] == "--backend" && w[i + 1] != "cuda" && w[i + 1] != "sim")
      return "no backend " + w[i + 1];
  }
  if (w[1] == "bench" && parts.size() > 1) return "gpulab bench takes one --part";
  if (dataset.empty()) return "";
  for (const auto& g : lab.groups)
    for (const auto& ds : g.datasets) {
      if (g.hidden || ds.name != dataset) continue;
      if (parts.empty()) return "";
      for (const auto& p : parts)
        if (ds.applies_to(p)) return "";
    }
  return "no dataset " + dataset + " a student may use with these parts";
}

}  // namespace

TEST_CASE("every lab's write-up template follows its handout, and its commands run as written") {
  size_t labs = 0;
  for (const auto& file : gpulab::find_lab_files(test::source_dir())) {
    const LabConfig lab = LabConfig::load(file);
    CAPTURE(lab.id);
    REQUIRE_MESSAGE(lab.writeup, "lab.json has no \"writeup\"");
    ++labs;
    double autograded = 0;
    for (const auto& p : lab.parts) autograded += lab.part_points(p.name);
    CHECK(lab.writeup->points >= 0.10 * autograded);
    CHECK(lab.writeup->points <= 0.15 * autograded);

    const std::string text = test::read_file(lab.dir / lab.writeup->file);
    const std::string handout = test::read_file(test::source_dir() / "handouts" / (lab.id + ".md"));
    // The handout sends students to it, by the path the kit ships it at.
    CHECK(contains(handout, "`labs/" + lab.id + "/" + lab.writeup->file + "`"));
    CHECK(contains(text, "\nName:"));
    CHECK(contains(text, "\nStudent ID:"));
    CHECK(contains(text, "`build/gpulab rubric " + lab.id + "`"));

    const auto items = handout_items(handout);
    const auto sections = template_sections(text);
    REQUIRE(items.size() >= 4);
    REQUIRE(sections.size() == items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      CAPTURE(sections[i].title);
      CHECK(sections[i].number == items[i].first);
      CHECK(sections[i].title == items[i].second);
      CHECK(contains(sections[i].text, "\n|---"));  // a table to fill in
      CHECK(contains(sections[i].text, "**What you concluded"));
    }
    const auto shown = commands(text);
    CHECK(shown.size() >= items.size());
    for (const auto& c : shown) {
      CAPTURE(c);
      CHECK(command_problem(c, lab) == "");
    }
  }
  CHECK(labs >= 7);
}

TEST_CASE("the command check refuses what gpulab would") {
  const LabConfig lab =
      LabConfig::load(test::source_dir() / "labs" / "scatter-gather" / "lab.json");
  CHECK(command_problem("build/gpulab time scatter-gather --part gather", lab) == "");
  CHECK(command_problem("build/gpulab time scatter-gather --part gather --dataset medium", lab) ==
        "");
  CHECK(command_problem("build/gpulab time scan --part gather", lab) ==
        "does not name the lab scatter-gather");
  CHECK(command_problem("build/gpulab time scatter-gather --part gathre", lab) == "no part gathre");
  CHECK(contains(command_problem("build/gpulab time scatter-gather --dataset hidden-medium", lab),
                 "no dataset hidden-medium"));
  CHECK(contains(
      command_problem("build/gpulab time scatter-gather --part cpu_fast --dataset large", lab),
      "no dataset large"));
  CHECK(command_problem("build/gpulab bench scatter-gather --dataset large", lab) ==
        "--dataset is not an option of gpulab bench");
  CHECK(command_problem("build/gpulab bench scatter-gather --part gather --part scatter", lab) ==
        "gpulab bench takes one --part");
  CHECK(contains(command_problem("build/gpulab grade scatter-gather", lab), "not a command"));
}
