// gpulab run's terminal output on the build tree (run_terminal.h): a failing test's message
// under the table, the compiler's paths named as the student gave them, exit status
// kExitTestsFailed for run and 0 for grade, which graded. The kit's cases
// (kit_run_output_e2e.cpp) cover the rest.
#include <doctest/doctest.h>

#include <fstream>

#include "e2e_util.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("run names the compiler's error at the path given, and exits saying tests failed") {
    const fs::path dir = scratch("run-output");
    // From the source tree, --src relative to it, as a student types it.
    const gpulab::ProcessResult p = gpulab::run_process(
        {{GPULAB_TEST_BINARY, "run", "scatter-gather", "--backend", "sim", "--part", "gather",
          "--src", "tests/submissions/scatter-gather/compile-error", "--out",
          (dir / "run.json").string()},
         kSource,
         300,
         1 << 20,
         0,
         0,
         {"NO_COLOR="}});
    INFO(p.output);
    CHECK(p.exit_code == gpulab::kExitTestsFailed);
    CHECK(p.output.find("tests/submissions/scatter-gather/compile-error/dcs.cu:5:") !=
          std::string::npos);
    CHECK(p.output.find("/submission/dcs.cu") == std::string::npos);
    CHECK(p.output.find("\033[") == std::string::npos);  // a pipe: plain, NO_COLOR empty or not
    // The report says the same; grade, which graded, exits 0 whatever the score.
    CHECK(contains(test_named(read_report(dir / "run.json"), "gather: does not build"),
                   "compile-error/dcs.cu:5:"));
    const Graded g =
        grade("scatter-gather", kSource / "tests/submissions/scatter-gather/compile-error",
              {"--backend", "sim", "--part", "gather"});
    CHECK(g.process.exit_code == gpulab::kExitOk);
    CHECK(contains(test_named(g.report, "gather: does not build"), "compile-error/dcs.cu:5:"));
  }
}
