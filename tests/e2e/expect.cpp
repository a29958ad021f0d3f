#include "expect.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "e2e_util.h"

namespace e2e {

namespace {

constexpr const char* kSourcePlaceholder = "@GPULAB_SOURCE_DIR@";

// The spec's keys that are not dataset groups.
const std::vector<std::string> kNotGroups = {
    "part",         "backends",        "build",          "intake",
    "about",        "output_contains", "output_lacks",   "report_output_contains",
    "review_flags", "timeout",         "from_reference", "append_to_reference",
    "adversary"};

// A file of the submission or the reference, which must be readable.
std::string read_existing(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
}

// The submission's own files: everything in its directory but expect.json.
std::vector<fs::path> own_files(const Expected& e) {
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(e.dir))
    if (f.path().filename() != "expect.json") files.push_back(f.path());
  return files;
}

// Each text of "output_contains": a string, or {backend: text} where the words differ by backend
// (a backend not named there checks nothing). The report names its backend.
void check_outputs_contain(const json& test, const json& spec, const json& report) {
  const std::string backend = report.at("extra_data").at("gpulab").at("backend");
  for (const auto& entry : spec.value("output_contains", json::array())) {
    if (entry.is_object() && !entry.contains(backend)) continue;
    const std::string text = entry.is_object() ? entry.at(backend) : entry;
    CHECK_MESSAGE(contains(test, text), "\"" << text << "\" is not in\n" << test.dump(2));
  }
}

void check_group(const json& report, const std::string& part, const std::string& group,
                 const json& spec) {
  const std::string name = part + ": correctness on the " + group + " datasets";
  // A group that lab.json does not run on this backend is not run: an information line, not a
  // test (Gradescope's report lists it in its output); nothing to check here.
  if (output_says(report, name + " not run (")) return;
  const json t = test_named(report, name);
  // "pass" or "fail", or one of them per part: {"inclusive": "pass", "hillis-steele": "fail"},
  // or per backend: {"sim": "fail", "cuda": "pass"}.
  const std::string backend = report.at("extra_data").at("gpulab").at("backend");
  const json& by = spec[group];
  const json& want = !by.is_object() ? by : by.contains(backend) ? by.at(backend) : by.at(part);
  if (want == "pass") {
    CHECK_MESSAGE(t["score"] == t["max_score"], t.dump(2));
  } else {
    CHECK_MESSAGE(t["score"] == 0, t.dump(2));
    if (group == "public") check_outputs_contain(t, spec, report);
  }
}

// The instructors' "to review" test (grader/core/review_flags.h) lists exactly the flags named, and
// students do not see it; [] : there is none.
void check_review_flags(const json& report, const json& names) {
  constexpr const char* kTitle = "to review: ";
  std::vector<json> review;
  for (const auto& t : report.at("tests"))
    if (t.at("name").get<std::string>().rfind(kTitle, 0) == 0) review.push_back(t);
  if (names.empty()) {
    CHECK_MESSAGE(review.empty(), "flagged for review:\n" << report.dump(2));
    return;
  }
  REQUIRE_MESSAGE(review.size() == 1, "one test to review, not " << review.size() << ":\n"
                                                                 << report.dump(2));
  CHECK(review[0].at("visibility") == "hidden");
  std::vector<std::string> listed;
  std::string title = review[0].at("name").get<std::string>().substr(std::strlen(kTitle));
  for (size_t at = 0; at <= title.size();) {
    const size_t end = std::min(title.find(", ", at), title.size());
    listed.push_back(title.substr(at, end - at));
    at = end + 2;
  }
  std::vector<std::string> wanted = names.get<std::vector<std::string>>();
  std::sort(listed.begin(), listed.end());
  std::sort(wanted.begin(), wanted.end());
  CHECK_MESSAGE(listed == wanted, "to review: " << review[0].at("name") << "\n"
                                                << review[0].at("output"));
}

}  // namespace

std::vector<std::vector<Expected>> expectations_under(const fs::path& root) {
  std::vector<std::vector<Expected>> labs;
  std::vector<fs::path> lab_dirs;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory()) lab_dirs.push_back(e.path());
  std::sort(lab_dirs.begin(), lab_dirs.end());
  for (const auto& lab_dir : lab_dirs) {
    std::vector<Expected> subs;
    for (const auto& e : fs::directory_iterator(lab_dir)) {
      std::ifstream in(e.path() / "expect.json");
      if (!in) continue;
      subs.push_back(
          {lab_dir.filename().string(), e.path().filename().string(), e.path(), json::parse(in)});
    }
    std::sort(subs.begin(), subs.end(),
              [](const Expected& a, const Expected& b) { return a.name < b.name; });
    if (!subs.empty()) labs.push_back(subs);
  }
  return labs;
}

bool on_backend(const json& spec, const std::string& backend) {
  for (const auto& b : spec.at("backends"))
    if (b == backend) return true;
  return false;
}

std::vector<std::string> parts_of(const json& spec) {
  const json& p = spec.at("part");
  return p.is_array() ? p.get<std::vector<std::string>>()
                      : std::vector<std::string>{p.get<std::string>()};
}

std::vector<std::string> grade_args(const json& spec, std::vector<std::string> backend_args) {
  for (const auto& part : parts_of(spec)) backend_args.insert(backend_args.end(), {"--part", part});
  backend_args.push_back("--no-time");
  if (spec.contains("timeout"))
    backend_args.insert(backend_args.end(), {"--timeout", spec["timeout"].dump()});
  return backend_args;
}

fs::path materialize(const Expected& e) {
  const bool from_reference =
      e.spec.contains("from_reference") || e.spec.contains("append_to_reference");
  bool templated = false;
  for (const auto& f : own_files(e))
    templated = templated || read_existing(f).find(kSourcePlaceholder) != std::string::npos;
  if (!from_reference && !templated) return e.dir;
  const fs::path dir = scratch(e.lab + "-" + e.name + "-source") / e.name;
  fs::create_directories(dir);
  if (!from_reference) {
    for (const auto& f : own_files(e)) fs::copy(f, dir / f.filename());
  } else {
    const fs::path ref = kSource / "reference" / e.lab;
    for (const auto& f : fs::directory_iterator(ref)) fs::copy(f.path(), dir / f.path().filename());
    const json edits_by_file = e.spec.value("from_reference", json::object());
    for (const auto& [file, edits] : edits_by_file.items()) {
      std::string text = read_existing(ref / file);
      for (const auto& edit : edits) {
        const std::string old_text = edit.at(0).get<std::string>();
        const size_t at = text.find(old_text);
        REQUIRE_MESSAGE(
            (at != std::string::npos && text.find(old_text, at + 1) == std::string::npos),
            "the submission " << e.name << " no longer applies to " << (ref / file)
                              << ": this text is not in it exactly once:\n"
                              << old_text);
        text.replace(at, old_text.size(), edit.at(1).get<std::string>());
      }
      std::ofstream(dir / file, std::ios::binary) << text;
    }
    for (const auto& file : e.spec.value("append_to_reference", json::array())) {
      const std::string name = file.get<std::string>();
      const std::string text = read_existing(dir / name) + "\n" + read_existing(e.dir / name);
      std::ofstream(dir / name, std::ios::binary) << text;
    }
  }
  for (const auto& f : fs::directory_iterator(dir)) {
    std::string text = read_existing(f.path());
    replace_all(text, kSourcePlaceholder, kSource.string());
    std::ofstream(f.path(), std::ios::binary) << text;
  }
  return dir;
}

void check_report(const Expected& e, const json& report) {
  const std::vector<std::string> parts = parts_of(e.spec);
  // Anywhere: the instructors' details of hidden datasets too.
  std::string all = plain_text(report.at("output").get<std::string>());
  for (const auto& t : report.at("tests"))
    all += "\n" + plain_text(t.at("output").get<std::string>());
  for (const auto& text : e.spec.value("output_lacks", json::array()))
    CHECK_MESSAGE(all.find(text.get<std::string>()) == std::string::npos,
                  "\"" << text.get<std::string>() << "\" is in the report:\n"
                       << all);
  for (const auto& text : e.spec.value("report_output_contains", json::array()))
    CHECK_MESSAGE(output_says(report, text.get<std::string>()),
                  "\"" << text.get<std::string>() << "\" is not in the report's output:\n"
                       << report.at("output").get<std::string>());
  if (e.spec.contains("review_flags")) check_review_flags(report, e.spec["review_flags"]);
  for (const auto& [key, title] : {std::pair<std::string, std::string>{"build", "does not build"},
                                   {"intake", "submission not accepted"}}) {
    if (!e.spec.contains(key)) continue;
    CHECK(score(report) == 0);
    for (const auto& part : parts)
      check_outputs_contain(test_named(report, part + ": " + title), e.spec, report);
    return;
  }
  // Every other key names a dataset group ("public", "hidden", or one of the lab's own).
  for (const auto& part : parts)
    for (const auto& [key, value] : e.spec.items())
      if (std::find(kNotGroups.begin(), kNotGroups.end(), key) == kNotGroups.end())
        check_group(report, part, key, e.spec);
  // Where the public datasets pass, no failing test holds the texts (a timing attack's, whose
  // correctness is its twin's): they are somewhere in the report, a timed test's lines or its
  // output.
  if (e.spec.value("public", json()) == "pass")
    check_outputs_contain(json{{"output", all}}, e.spec, report);
}

void check_submission(const Expected& e, const std::vector<std::string>& backend_args) {
  const Graded g = grade(e.lab, materialize(e), grade_args(e.spec, backend_args), 300);
  CHECK(g.process.exit_code == 0);
  check_report(e, g.report);
}

}  // namespace e2e
