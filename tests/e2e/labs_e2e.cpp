// End-to-end, table-driven: every lab with shipped submissions that carry an expect.json
// (tests/submissions/<lab>/<name>/expect.json, the convention in expect.h) is graded on one
// backend, and
//  - its reference scores full marks (on a GPU, timed points included),
//  - its stub builds, runs and scores zero,
//  - each submission's report says what its expect.json says.
// Adding a lab or a planted bug adds files, not test code. Each lab is a doctest subcase named
// by its id, so `--subcase=<lab>` checks one lab. (scatter-gather's own suites, grade_e2e.cpp,
// check more of the grader with it.)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "e2e_util.h"
#include "expect.h"

namespace {

using namespace e2e;

void check_labs(const std::string& backend, bool timed) {
  const std::vector<std::string> backend_args = {"--backend", backend};
  const auto labs = expectations_under(kSource / "tests" / "submissions");
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
