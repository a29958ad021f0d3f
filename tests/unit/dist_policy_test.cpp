// grader/build/dist_policy.h: what the student kit and the Gradescope autograder take from the
// files git tracks, and the templates' placeholders.
#include "build/dist_policy.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "os/process.h"
#include "test_util.h"
#include "text/joined_words.h"

namespace {

using gpulab::Bundle;

std::vector<std::string> paths(const std::vector<gpulab::BundleFile>& files) {
  std::vector<std::string> p;
  for (const auto& f : files) p.push_back(f.path);
  return p;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const std::vector<std::string> kTracked = {".ci/run",
                                           ".clang-format",
                                           "CMakeLists.txt",
                                           "CMakePresets.json",
                                           "README.md",
                                           "cmake/GpulabLab.cmake",
                                           "datasets/scan/generator.cpp",
                                           "docs/GRADING.md",
                                           "families/dcs/input.h",
                                           "grader/grade/grade.cpp",
                                           "handouts/scan.md",
                                           "harness/npy.cpp",
                                           "labs/scan/REPORT.md",
                                           "labs/scan/lab.json",
                                           "labs/scan/scan.cu",
                                           "packaging/gradescope/run_autograder",
                                           "packaging/student-kit/README.md",
                                           "packaging/student-kit/gitignore",
                                           "reference/scan/scan.cu",
                                           "scripts/gpu-check.sh",
                                           "scripts/setup.sh",
                                           "sim/runtime/block.cpp",
                                           "tests/submissions/scan/alt-correct/scan.cu"};

}  // namespace

TEST_CASE("the student kit: sources, labs, handouts and its README; nothing instructor-only") {
  const auto kit = paths(gpulab::select_files(Bundle::student_kit, kTracked));
  for (const char* wanted :
       {"CMakeLists.txt", "cmake/GpulabLab.cmake", "datasets/scan/generator.cpp",
        "families/dcs/input.h", "grader/grade/grade.cpp", "handouts/scan.md", "harness/npy.cpp",
        "labs/scan/lab.json", "labs/scan/scan.cu", "scripts/setup.sh", "sim/runtime/block.cpp",
        "README.md", "CMakePresets.json",  // the presets: the README's build is the student one
        "labs/scan/REPORT.md"})            // the write-up's template, beside the student's code
    CHECK_MESSAGE(has(kit, wanted), wanted);
  for (const auto& p : kit) {
    INFO(p);
    CHECK(p.rfind("reference/", 0) != 0);
    CHECK(p.rfind("tests/", 0) != 0);
    CHECK(p.rfind("docs/", 0) != 0);
    CHECK(p.rfind("packaging/", 0) != 0);
  }
  CHECK_FALSE(has(kit, "scripts/gpu-check.sh"));
  // The kit's README is its own, not the instructors'.
  const auto files = gpulab::select_files(Bundle::student_kit, kTracked);
  const auto readme =
      std::find_if(files.begin(), files.end(), [](const auto& f) { return f.path == "README.md"; });
  REQUIRE(readme != files.end());
  CHECK(readme->source == "packaging/student-kit/README.md");
  // Its .gitignore keeps the build out of a student's repository.
  const auto ignore = std::find_if(files.begin(), files.end(),
                                   [](const auto& f) { return f.path == ".gitignore"; });
  REQUIRE(ignore != files.end());
  CHECK(ignore->source == "packaging/student-kit/gitignore");
}

TEST_CASE("every path a handout names is one the student kit ships") {
  // A student reads the handouts in the kit: a pointer to docs/ or tests/ leads nowhere there.
  const std::regex path(
      R"(\b(?:docs|reference|tests|packaging|scripts|grader|harness|labs|datasets|families|sim)/[A-Za-z0-9_./-]*[A-Za-z0-9_])");
  size_t handouts = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() / "handouts")) {
    if (e.path().extension() != ".md") continue;
    ++handouts;
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator m(text.begin(), text.end(), path), end; m != end; ++m) {
      INFO(e.path().filename().string() << " names " << m->str());
      CHECK_FALSE(gpulab::select_files(Bundle::student_kit, {m->str()}).empty());
    }
  }
  CHECK(handouts >= 6);
  // The check itself: a path the kit leaves out is found and refused.
  CHECK(gpulab::select_files(Bundle::student_kit, {"docs/PERF.md"}).empty());
  CHECK_FALSE(gpulab::select_files(Bundle::student_kit, {"labs/scan/scan.cu"}).empty());
}

TEST_CASE("every figure a handout shows is a file of the tree the student kit ships") {
  const std::regex image(R"(!\[[^\]]*\]\(([^)\s]+)\))");
  size_t figures = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() / "handouts")) {
    if (e.path().extension() != ".md") continue;
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator m(text.begin(), text.end(), image), end; m != end; ++m) {
      const std::string shown = "handouts/" + (*m)[1].str();
      INFO(e.path().filename().string() << " shows " << shown);
      CHECK(std::filesystem::is_regular_file(test::source_dir() / shown));
      CHECK_FALSE(gpulab::select_files(Bundle::student_kit, {shown}).empty());
      ++figures;
    }
  }
  CHECK(figures >= 6);
}

TEST_CASE("the Gradescope autograder: what builds gpulab for the CPU backend, no reference") {
  const auto gs = paths(gpulab::select_files(Bundle::gradescope, kTracked));
  for (const char* wanted :
       {"CMakeLists.txt", "grader/grade/grade.cpp", "labs/scan/scan.cu", "sim/runtime/block.cpp",
        "datasets/scan/generator.cpp", "families/dcs/input.h",
        "labs/scan/REPORT.md"})  // the template: an unchanged write-up is told apart
    CHECK_MESSAGE(has(gs, wanted), wanted);
  for (const char* unwanted :
       {"reference/scan/scan.cu", "tests/submissions/scan/alt-correct/scan.cu", "handouts/scan.md",
        "README.md", "docs/GRADING.md", "packaging/gradescope/run_autograder", "CMakePresets.json"})
    CHECK_MESSAGE(!has(gs, unwanted), unwanted);
}

TEST_CASE("the bundles are made from this checkout's tracked files") {
  const auto tracked = gpulab::tracked_files(test::source_dir());
  CHECK(has(tracked, "reference/scan/scan.cu"));
  CHECK(has(tracked, "grader/grade/grade.cpp"));
  CHECK(std::is_sorted(tracked.begin(), tracked.end()));
  test::TempDir not_a_checkout;
  CHECK_THROWS_WITH_AS(gpulab::tracked_files(not_a_checkout.path()),
                       doctest::Contains("git checkout"), std::runtime_error);
}

TEST_CASE("templates: every placeholder filled, or an error naming the one left") {
  CHECK(gpulab::fill_template("lab=@GPULAB_LAB@ seed=@GPULAB_HIDDEN_SEED@ @GPULAB_LAB@",
                              {{"GPULAB_LAB", "scan"}, {"GPULAB_HIDDEN_SEED", "42"}},
                              "t") == "lab=scan seed=42 scan");
  CHECK_THROWS_WITH_AS(gpulab::fill_template("x=@GPULAB_OTHER@", {{"GPULAB_LAB", "scan"}}, "t"),
                       doctest::Contains("@GPULAB_OTHER@"), std::runtime_error);
}

TEST_CASE("a shell-quoted value is one word of the script, whatever its text") {
  // What an instructor's hidden seed may hold: quotes, spaces, $(...), a newline.
  const std::string text = "it's \"a\" $(touch /tmp/gpulab-no) `x` \\ ;\n* end";
  const gpulab::ProcessResult r = gpulab::run_process(
      {{"bash", "-c", "printf '%s|' " + gpulab::shell_quote(text) + " " + gpulab::shell_quote("")},
       "/",
       10,
       4096,
       0,
       0,
       {}});
  CHECK(r.ok());
  CHECK(r.output == text + "||");
}
