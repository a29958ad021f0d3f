// gpulab run's terminal output in the unpacked student kit (run_terminal.h): under the table,
// each failing test's message as the student needs it (the compiler's error at their own
// file's line, the CPU backend's race with file and line, the first wrong element with
// expected and got), and an exit status that says something failed. A pipe is no terminal:
// plain text, no counter line.
#include <doctest/doctest.h>

#include "e2e_util.h"
#include "os/exit_status.h"
#include "student_kit.h"

namespace {

using namespace e2e;

const fs::path kSubmissions = kSource / "tests" / "submissions" / "scatter-gather";

// `gpulab run scatter-gather` in the kit with the student's dcs.cu replaced by `planted`.
gpulab::ProcessResult run_planted(const std::string& planted, std::vector<std::string> args) {
  const StudentKit& k = student_kit();
  const KitFile file("labs/scatter-gather/dcs.cu", kSubmissions / planted / "dcs.cu");
  std::vector<std::string> argv = {k.gpulab.string(), "run", "scatter-gather", "--backend", "sim"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_in_kit(argv);
}

bool says(const gpulab::ProcessResult& p, const std::string& text) {
  return p.output.find(text) != std::string::npos;
}

void check_plain(const gpulab::ProcessResult& p) {
  CHECK_FALSE(says(p, "\033["));       // no colour, no counter line redrawn
  CHECK_FALSE(says(p, " on tiny\n"));  // no line per step
}

}  // namespace

TEST_SUITE("student-kit") {
  TEST_CASE("gpulab run in the kit shows a compile error at the student's own file and line") {
    const auto p = run_planted("compile-error", {"--part", "gather"});
    INFO(p.output);
    CHECK(p.exit_code == gpulab::kExitTestsFailed);
    // The path the student edits, relative to where they stand: not the grader's work folder.
    CHECK(says(p, "labs/scatter-gather/dcs.cu:5:"));
    CHECK(says(p, "error"));
    CHECK_FALSE(says(p, "/submission/dcs.cu"));
    CHECK(says(p, "FAIL gather: does not build"));
    check_plain(p);
  }

  TEST_CASE("gpulab run in the kit shows the CPU backend's race with file and line") {
    const auto p = run_planted("bug-scatter-no-atomics",
                               {"--part", "scatter", "--dataset", "odd-33x31x5", "--no-time"});
    INFO(p.output);
    CHECK(p.exit_code == gpulab::kExitTestsFailed);
    CHECK(says(p, "FAIL scatter: correctness on the public datasets"));
    CHECK(says(p, "race on global memory"));
    CHECK(says(p, "dcs.cu:13"));
    check_plain(p);
  }

  TEST_CASE("gpulab run in the kit shows the first wrong element, expected and got") {
    const auto p =
        run_planted("bug-dropped-atom", {"--part", "gather", "--dataset", "tiny", "--no-time"});
    INFO(p.output);
    CHECK(p.exit_code == gpulab::kExitTestsFailed);
    CHECK(says(p, "FAIL tiny: potential: 1 of 1 values are outside the error bound"));
    CHECK(says(p, "expected "));
    CHECK(says(p, ", got "));
    CHECK(says(p, "allowed "));
    check_plain(p);
  }
}
