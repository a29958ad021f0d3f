// End-to-end: the write-up (lab.json's "writeup") of a graded folder. Kept beside the report
// and named in it by a test worth nothing; absent, a note; a link, refused with a message while
// the code is graded all the same. Each grades code that does not build, with one part and no
// timing: the cheapest grading there is, and its write-up is the instructor's to grade all the
// same.
#include <doctest/doctest.h>

#include <fstream>

#include "e2e_util.h"

namespace {

using namespace e2e;

const std::vector<std::string> kArgs = {"--backend", "sim", "--no-time", "--part", "gather"};
constexpr const char* kTest = "write-up (graded by your instructor)";

// A submission folder: code that does not build, and whatever `add` puts beside it.
fs::path submission(const std::string& name) {
  const fs::path dir = scratch("writeup-" + name) / "submission";
  fs::create_directories(dir);
  fs::copy_file(kSource / "tests" / "submissions" / "scatter-gather" / "compile-error" / "dcs.cu",
                dir / "dcs.cu");
  return dir;
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("a folder's write-up is kept beside the report, and named in it by a test of 0") {
    const fs::path sub = submission("kept");
    const std::string text =
        "# Lab 1: write-up\n\nName: canary-3141\n\n| part | ms |\n|---|---:|\n";
    std::ofstream(sub / "REPORT.md") << text;
    const fs::path report = sub.parent_path() / "out" / "results.json";
    const Graded g = grade_to(report, "scatter-gather", sub, kArgs);
    CHECK(g.process.exit_code == 0);
    const json t = test_named(g.report, kTest);
    CHECK(t["max_score"] == 0);
    CHECK(t["status"] == "passed");
    CHECK(contains(t, "REPORT.md (" + std::to_string(text.size()) + " bytes) was found and kept"));
    CHECK(contains(t, "11 points"));
    CHECK(t["extra_data"]["kept_as"] == "results.REPORT.md");
    CHECK(read_text(report.parent_path() / "results.REPORT.md") == text);
    // The grader's terminal says so; nothing of the text is quoted anywhere.
    CHECK(said(g.process, "kept as " + (report.parent_path() / "results.REPORT.md").string()));
    CHECK(g.process.output.find("write-up (graded by your instructor)") != std::string::npos);
    CHECK(g.report.dump().find("canary-3141") == std::string::npos);
    CHECK(g.process.output.find("canary-3141") == std::string::npos);
  }

  TEST_CASE("a folder without a write-up gets a note, not a failure, and no earlier copy stays") {
    const fs::path sub = submission("absent");
    const fs::path report = sub.parent_path() / "report.json";
    std::ofstream(sub.parent_path() / "report.REPORT.md") << "an earlier submission's write-up";
    std::vector<std::string> args = kArgs;
    args.insert(args.end(), {"--format", "gpulab"});
    const Graded g = grade_to(report, "scatter-gather", sub, args);
    CHECK(g.process.exit_code == 0);
    const json t = test_named(g.report, kTest);
    CHECK(t["info"] == true);
    CHECK(t["max_score"] == 0);
    CHECK(contains(t, "No REPORT.md was found beside dcs.cu"));
    CHECK(contains(t, "11 points, graded by your instructor"));
    CHECK_FALSE(fs::exists(sub.parent_path() / "report.REPORT.md"));
    CHECK(said(g.process, "write-up: No REPORT.md was found"));
  }

  TEST_CASE("a write-up that is a symbolic link is refused with a message; the report is written") {
    const fs::path sub = submission("link");
    const fs::path secret = sub.parent_path() / "secret.md";
    std::ofstream(secret) << "canary-2718: what the link leads to\n";
    fs::create_symlink(secret, sub / "REPORT.md");
    const Graded g = grade_to(sub.parent_path() / "results.json", "scatter-gather", sub, kArgs);
    CHECK(g.process.exit_code == 0);
    CHECK(contains(test_named(g.report, "gather: does not build"), "dcs.cu:"));
    // A note in the output (Gradescope's "Not graded here"), not a test.
    CHECK(output_says(g.report, std::string(kTest) +
                                    ": REPORT.md was not kept: \"REPORT.md\" is a symbolic link"));
    CHECK_FALSE(fs::exists(sub.parent_path() / "results.REPORT.md"));
    CHECK(said(g.process, "is a symbolic link"));
    CHECK(g.report.dump().find("canary-2718") == std::string::npos);
  }
}
