// End-to-end: a grading under a time budget (--time-budget; grader/os/time_budget.h,
// grader/grade/part_budgets.h) ends within it, the report written: a submission whose parts block
// (sleep-past-timeout sleeps an hour in exclusive and inclusive, well within their own limit of
// 180 s on the clock) has them stopped at their shares and reported "not graded: time budget",
// while the part after them, which does not block, is still graded; and a budget shorter than
// the build leaves every part not graded, by `gpulab grade` and by `gpulab run` (GitHub
// Classroom's) alike. Cheap: half a minute, mostly asleep, and three builds of a small file.
#include <doctest/doctest.h>
#include <sys/prctl.h>

#include <string>
#include <vector>

#include "e2e_util.h"
#include "os/exit_status.h"

namespace {

using namespace e2e;

const fs::path kBlocks = kSource / "tests" / "adversarial" / "scan" / "sleep-past-timeout";

// A test that the budget cut: 0 of the part's points, with the student's message.
void check_not_graded(const json& report, const std::string& part, const std::string& why) {
  const json t = test_named(report, part + ": not graded: time budget");
  CHECK(t.at("score") == 0);
  CHECK(t.at("max_score").get<double>() > 0);
  CHECK(t.at("visibility") == "visible");
  CHECK_MESSAGE(contains(t, why), t.dump(1));
  CHECK(contains(t, "says nothing about whether it is right"));
}

}  // namespace

TEST_SUITE("sim") {
  TEST_CASE("a submission whose parts block is graded within its time budget") {
    // Orphans of the grader's children come to this process: a sleeping run must not outlive it.
    REQUIRE(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    // A build of a few seconds, then a third of what is left for each part: enough for
    // hillis-steele's fifteen runs on a busy machine.
    const double budget_s = 30;
    const fs::path report = scratch("time-budget-blocks") / "results.json";
    const Graded g =
        grade_to(report, "scan", kBlocks,
                 {"--backend", "sim", "--part", "exclusive", "--part", "inclusive", "--part",
                  "hillis-steele", "--time-budget", std::to_string(budget_s)});
    MESSAGE("graded in " << g.process.wall_s << " s under a budget of " << budget_s << " s");
    INFO("gpulab said:\n" << g.process.output);
    CHECK(g.process.exit_code == gpulab::kExitOk);
    // Within the budget, the report written: without it, each blocking part waits out its own
    // limit, 180 s on the clock.
    CHECK(g.process.wall_s < budget_s);
    const json& r = g.report;
    // The parts that block are stopped at their shares: not graded, not failed.
    check_not_graded(r, "exclusive", "your code's run on the dataset int-1 had run ");
    check_not_graded(r, "inclusive", "without finishing");
    // The part after them still had its share: graded (the file's hillis-steele does nothing).
    const json hs = test_named(r, "hillis-steele: correctness on the public");
    CHECK(hs.at("score") == 0);
    CHECK(contains(hs, "public datasets passed"));
    // Students read that the score is not a full grade; the instructor's record says why.
    CHECK(output_says(r, "Not every part was graded"));
    CHECK(output_says(r, "so exclusive and inclusive were not graded"));
    const json& record = r.at("extra_data").at("gpulab").at("time_budget");
    CHECK(record.at("budget_s") == budget_s);
    CHECK(record.at("not_graded").size() == 2);
    CHECK(said(g.process, "warning (instructor): time budget: exclusive not graded"));
    const std::vector<std::string> left = leftover_processes();
    CHECK_MESSAGE(left.empty(), "processes were left running: " << left.size() << ", the first "
                                                                << (left.empty() ? "" : left[0]));
  }

  TEST_CASE("a budget shorter than the build leaves every part not graded, grade and run alike") {
    const fs::path reference = kSource / "reference" / "scan";
    const fs::path report = scratch("time-budget-build") / "results.json";
    // A cache of its own, empty: a runner of these files kept by an earlier grading
    // (build_cache.h) would take no time to build.
    const std::vector<std::string> env = {"GPULAB_CACHE_DIR=" +
                                          (report.parent_path() / "cache").string()};
    const Graded g = grade_to(
        report, "scan", reference,
        {"--backend", "sim", "--part", "exclusive", "--part", "inclusive", "--time-budget", "1"},
        900, env);
    INFO("gpulab said:\n" << g.process.output);
    CHECK(g.process.exit_code == gpulab::kExitOk);
    CHECK(g.process.wall_s < 3);  // a second, and gpulab's own start and end
    check_not_graded(g.report, "exclusive", "while your code was being built");
    check_not_graded(g.report, "inclusive", "the build of the submission had run");
    CHECK(g.report.at("score") == 0);

    // gpulab run takes the same option (GitHub Classroom's step passes it): a failed test each.
    const fs::path result = scratch("time-budget-run") / "classroom.json";
    const gpulab::ProcessResult run =
        run_command({GPULAB_TEST_BINARY, "run", "scan", "--src", reference.string(), "--backend",
                     "sim", "--part", "exclusive", "--time-budget", "1", "--format",
                     "github-classroom", "--out", result.string()},
                    result.parent_path(), env);
    INFO("gpulab run said:\n" << run.output);
    CHECK(run.exit_code == gpulab::kExitTestsFailed);
    const json c = read_report(result);
    CHECK(c.at("status") == "fail");
    REQUIRE(c.at("tests").size() == 1);
    CHECK(c.at("tests")[0].at("name") == "exclusive: not graded: time budget");
    CHECK(c.at("tests")[0].at("status") == "fail");
  }
}
