// End-to-end, table-driven: every lab with shipped submissions that carry an expect.json
// (tests/submissions/<lab>/<name>/expect.json) is graded on one backend, and
//  - its reference scores full marks (on a GPU, timed points included),
//  - its stub builds, runs and scores zero,
//  - each submission's report says what its expect.json says:
//      {"part": P, or [P, ...] (each part graded, each expected to show what follows),
//       "backends": ["sim", "cuda"],
//       "build": "fail"                      (the part's "does not build" test), or
//       "public": "pass" | "fail", "hidden": "pass" | "fail" (optional; any group of the lab),
//       "output_contains": [texts the failing test's output must hold],
//       "about": what the submission is (for people),
//       "from_reference": {file: [[old, new], ...]}   (optional, see below)}
// A planted bug is best written as edits of the reference ("from_reference"): the submission
// is then the reference's files with each `old` text (which must occur exactly once) replaced
// by `new`, so the bug follows the reference as it is tuned, and a bug that no longer applies
// fails this test. Adding a lab or a planted bug adds files, not test code. Each lab is a
// doctest subcase named by its id, so `--subcase=<lab>` checks one lab. (scatter-gather's
// own suites, grade_e2e.cpp, check more of the grader with it.)
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace {

using namespace e2e;

struct Expected {
  std::string lab, name;
  fs::path dir;
  json spec;
};

// The labs that ship expect.json files, each with its submissions, sorted.
std::vector<std::vector<Expected>> labs_with_expectations() {
  std::vector<std::vector<Expected>> labs;
  const fs::path root = kSource / "tests" / "submissions";
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

void check_outputs_contain(const json& test, const json& spec) {
  for (const auto& text : spec.value("output_contains", json::array()))
    CHECK_MESSAGE(contains(test, text.get<std::string>()), "\"" << text.get<std::string>()
                                                                << "\" is not in\n"
                                                                << test.dump(2));
}

void check_group(const json& report, const std::string& part, const std::string& group,
                 const json& spec) {
  if (!spec.contains(group)) return;
  const json t = test_named(report, part + ": correctness on the " + group + " datasets");
  // A group that lab.json does not run on this backend is not run: nothing to check here.
  if (t["name"].get<std::string>().find(" datasets not run (") != std::string::npos) return;
  if (spec[group] == "pass") {
    CHECK_MESSAGE(t["score"] == t["max_score"], t.dump(2));
  } else {
    CHECK_MESSAGE(t["score"] == 0, t.dump(2));
    if (group == "public") check_outputs_contain(t, spec);
  }
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The submission's directory: its own, or the reference with its "from_reference" edits.
fs::path materialize(const Expected& e) {
  if (!e.spec.contains("from_reference")) return e.dir;
  const fs::path dir = scratch(e.lab + "-" + e.name + "-source") / e.name;
  fs::create_directories(dir);
  const fs::path ref = kSource / "reference" / e.lab;
  for (const auto& f : fs::directory_iterator(ref)) fs::copy(f.path(), dir / f.path().filename());
  for (const auto& [file, edits] : e.spec["from_reference"].items()) {
    std::string text = read_file(ref / file);
    for (const auto& edit : edits) {
      const std::string old_text = edit.at(0).get<std::string>();
      const size_t at = text.find(old_text);
      REQUIRE_MESSAGE((at != std::string::npos && text.find(old_text, at + 1) == std::string::npos),
                      "the planted bug " << e.name << " no longer applies to " << (ref / file)
                                         << ": this text is not in it exactly once:\n"
                                         << old_text);
      text.replace(at, old_text.size(), edit.at(1).get<std::string>());
    }
    std::ofstream(dir / file, std::ios::binary) << text;
  }
  return dir;
}

void check_submission(const Expected& e, const std::vector<std::string>& backend_args) {
  const json& part_spec = e.spec.at("part");
  const std::vector<std::string> parts =
      part_spec.is_array() ? part_spec.get<std::vector<std::string>>()
                           : std::vector<std::string>{part_spec.get<std::string>()};
  std::vector<std::string> args = backend_args;
  for (const auto& part : parts) args.insert(args.end(), {"--part", part});
  args.push_back("--no-time");
  const Graded g = grade(e.lab, materialize(e), args, 300);
  CHECK(g.process.exit_code == 0);
  if (e.spec.value("build", "") == "fail") {
    CHECK(score(g.report) == 0);
    for (const auto& part : parts)
      check_outputs_contain(test_named(g.report, part + ": does not build"), e.spec);
    return;
  }
  // Every other key names a dataset group ("public", "hidden", or one of the lab's own).
  static const std::vector<std::string> kNotGroups = {"part",  "backends",        "build",
                                                      "about", "output_contains", "from_reference"};
  for (const auto& part : parts)
    for (const auto& [key, value] : e.spec.items())
      if (std::find(kNotGroups.begin(), kNotGroups.end(), key) == kNotGroups.end())
        check_group(g.report, part, key, e.spec);
}

void check_labs(const std::string& backend, bool timed) {
  const std::vector<std::string> backend_args = {"--backend", backend};
  const auto labs = labs_with_expectations();
  REQUIRE_FALSE(labs.empty());
  for (const auto& subs : labs) {
    const std::string lab = subs.front().lab;
    // One subcase per lab: `e2e_tests --test-suite=gpu-labs --subcase=scan` runs one lab.
    SUBCASE(lab.c_str()) {
      {
        INFO("lab " << lab << ": the reference");
        std::vector<std::string> args = backend_args;
        if (!timed) args.push_back("--no-time");
        const Graded g = grade(lab, kSource / "reference" / lab, args);
        CHECK(g.process.exit_code == 0);
        CHECK(max_score(g.report) > 0);
        CHECK_MESSAGE(score(g.report) == max_score(g.report), g.report.dump(2));
        // The reference runs clean under the CPU backend's detectors: no finding is quoted.
        for (const auto& t : g.report["tests"]) CHECK_FALSE(contains(t, "gpulab sim,"));
      }
      {
        INFO("lab " << lab << ": the stub");
        std::vector<std::string> args = backend_args;
        args.push_back("--no-time");
        const Graded g = grade(lab, kSource / "labs" / lab, args);
        CHECK(g.process.exit_code == 0);
        CHECK(max_score(g.report) > 0);
        CHECK(score(g.report) == 0);
      }
      for (const auto& e : subs) {
        if (!on_backend(e.spec, backend)) continue;
        INFO("lab " << lab << ": submission " << e.name << " (" << e.spec.dump() << ")");
        check_submission(e, backend_args);
      }
    }
  }
}

}  // namespace

TEST_SUITE("sim-labs") {
  TEST_CASE("every lab on the CPU backend: reference, stub, and each expect.json") {
    check_labs("sim", false);
  }
}

TEST_SUITE("gpu-labs") {
  TEST_CASE("every lab on the GPU: reference with timing, stub, and each expect.json") {
    check_labs("cuda", true);
  }
}
