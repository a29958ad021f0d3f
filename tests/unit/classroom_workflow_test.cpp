// The GitHub Classroom workflow of `gpulab dist --github-classroom` (classroom_workflow.h): its
// labs, their step ids, and the text filled from packaging/github-classroom/.
#include "package/classroom_workflow.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "os/platform_time.h"
#include "test_util.h"

using gpulab::ClassroomOptions;

TEST_CASE("classroom workflow: a lab's step id is its letters and digits, starting with a letter") {
  CHECK(gpulab::classroom_step_id("scan") == "scan");
  CHECK(gpulab::classroom_step_id("scatter-gather") == "scattergather");
  CHECK(gpulab::classroom_step_id("Seg_Scan.2") == "segscan2");
  CHECK(gpulab::classroom_step_id("2d-stencil") == "lab2dstencil");
  for (const std::string bad : {"", "a b", "x;rm -rf ~", "../scan", "-scan", "a/b"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH(gpulab::classroom_step_id(bad),
                      doctest::Contains("cannot be graded by the GitHub Classroom workflow"));
  }
}

TEST_CASE("classroom workflow: every lab of the kit, or those --lab names") {
  const std::vector<std::string> kit = {"binning", "scan", "scatter-gather"};
  CHECK(gpulab::classroom_labs({true, {}}, kit) == kit);
  CHECK(gpulab::classroom_labs({true, {"scatter-gather", "scan"}}, kit) ==
        std::vector<std::string>{"scatter-gather", "scan"});
  CHECK_THROWS_WITH(gpulab::classroom_labs({true, {"scna"}}, kit),
                    doctest::Contains("no lab \"scna\" (did you mean \"scan\"?)"));
  CHECK_THROWS_WITH(gpulab::classroom_labs({true, {"scan", "scan"}}, kit),
                    doctest::Contains("named twice"));
  CHECK_THROWS_WITH(gpulab::classroom_labs({true, {}}, {"seg-scan", "segscan"}),
                    doctest::Contains("labs seg-scan and segscan would be one runner"));
  CHECK_THROWS_WITH(gpulab::classroom_labs({true, {}}, {}), doctest::Contains("no lab"));
}

TEST_CASE("classroom workflow: a step per lab, each a runner of the reporter, nothing unfilled") {
  const std::string w = gpulab::classroom_workflow(test::source_dir(), {"scatter-gather", "scan"});
  CHECK(w.find('@' + std::string("GPULAB_")) == std::string::npos);
  CHECK(w.find("runs-on: ubuntu-24.04") != std::string::npos);
  CHECK(w.find("bash scripts/setup.sh --packages-only") != std::string::npos);
  CHECK(w.find("cmake --preset student && cmake --build --preset student") != std::string::npos);
  // Each lab's step, in order, runs gpulab on the CPU backend into a result of its own.
  const auto sg = w.find(
      "        id: scattergather\n"
      "        if: ${{ !cancelled() }}\n"
      "        run: |\n"
      "          mkdir -p \"$(dirname build/classroom-scattergather.json)\"\n"
      "          rm -f build/classroom-scattergather.json\n");
  // Within a time budget: the step's limit less a margin (platform_time.h), so that the step
  // hands on a report before GitHub stops it; the job's limit holds the set-up and every step.
  const std::string minutes = std::to_string(gpulab::kClassroomStepMinutes);
  const auto scan = w.find(
      "build/gpulab run scan --backend sim --format github-classroom "
      "--out build/classroom-scan.json --time-budget " +
      gpulab::platform_time_budget_text(60.0 * gpulab::kClassroomStepMinutes) + " || status=$?");
  CHECK(w.find("        timeout-minutes: " + minutes + "\n        id: scan\n") !=
        std::string::npos);
  CHECK(w.find("    timeout-minutes: " +
               std::to_string(gpulab::kClassroomSetupMinutes + 2 * gpulab::kClassroomStepMinutes) +
               "\n") != std::string::npos);
  REQUIRE(sg != std::string::npos);
  REQUIRE(scan != std::string::npos);
  CHECK(sg < scan);
  CHECK(w.find("echo \"result=$(base64 -w0 build/classroom-scan.json)\" >> \"$GITHUB_OUTPUT\"") !=
        std::string::npos);
  // The reporter reads runner <id>'s result from <ID>_RESULTS.
  CHECK(w.find("          SCATTERGATHER_RESULTS: ${{ steps.scattergather.outputs.result }}\n"
               "          SCAN_RESULTS: ${{ steps.scan.outputs.result }}\n") != std::string::npos);
  CHECK(w.find("runners: scattergather,scan\n") != std::string::npos);
  // The reporter comes after every lab's step.
  CHECK(w.find("autograding-grading-reporter@v1") > scan);
  // What GitHub Classroom's reporter needs to report the points.
  CHECK(w.find("permissions:\n  checks: write\n  actions: read\n  contents: read\n") !=
        std::string::npos);
}

namespace {

namespace fs = std::filesystem;

// The script of lab `lab`'s step, as GitHub runs it (bash -e), in `dir` with `gpulab` (a script,
// or nothing) as its build/gpulab: its exit status, what it printed, and its GITHUB_OUTPUT.
struct Step {
  int status = -1;
  std::string log, output;
};
Step run_step(const std::string& workflow, const std::string& lab, const fs::path& dir,
              const std::string& gpulab) {
  const auto at = workflow.find("        id: " + lab + "\n");
  REQUIRE(at != std::string::npos);
  std::string script;
  std::istringstream lines(workflow.substr(workflow.find("run: |\n", at) + 7));
  for (std::string line; std::getline(lines, line) && line.rfind("          ", 0) == 0;)
    script += line.substr(10) + "\n";
  fs::remove_all(dir / "build");
  fs::remove(dir / "out");
  test::write_file(dir / "step.sh", script);
  if (!gpulab.empty()) {
    test::write_file(dir / "build" / "gpulab", "#!/usr/bin/env bash\n" + gpulab);
    fs::permissions(dir / "build" / "gpulab", fs::perms::owner_all);
  }
  test::write_file(dir / "out", "");
  const std::string command =
      "cd '" + dir.string() + "' && GITHUB_OUTPUT=out bash -e step.sh > log 2>&1";
  Step s;
  const int w = std::system(command.c_str());
  s.status = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
  s.log = test::read_file(dir / "log");
  s.output = test::read_file(dir / "out");
  return s;
}

// A stand-in for gpulab run that writes a result where --out says, then ends with `ending`.
std::string writes_result_then(const std::string& ending) {
  return "while [ $# -gt 0 ]; do [ \"$1\" = --out ] && out=$2; shift; done\n"
         "echo '{\"version\": 1, \"status\": \"error\"}' > \"$out\"\n" +
         ending + "\n";
}

}  // namespace

// A lab's step hands the reporter a result only for a grade: gpulab run's 0 (every test passed)
// or 2 (some failed). Any other end, report or not (the grader failed, was stopped or killed, or
// could not run), fails the step with the reason in the run's summary, and the reporter, which
// runs only when every step succeeded, posts no points: none for a lab that was not graded,
// and no total that leaves it out.
TEST_CASE("classroom workflow: a lab not graded fails its step; the reporter needs every lab") {
  const std::string w = gpulab::classroom_workflow(test::source_dir(), {"scatter-gather", "scan"});
  CHECK(w.find("      - name: Autograding reporter\n"
               "        uses: classroom-resources/autograding-grading-reporter@v1\n") !=
        std::string::npos);
  // Every lab's step runs, whatever became of the others, unless the run was cancelled.
  CHECK(w.find("        id: scan\n        if: ${{ !cancelled() }}\n        run: |\n") !=
        std::string::npos);
  CHECK(w.find("always()") == std::string::npos);

  test::TempDir dir;
  const Step graded = run_step(w, "scan", dir.path(), writes_result_then("exit 2"));
  INFO(graded.log);
  CHECK(graded.status == 0);
  CHECK(graded.output.rfind("result=", 0) == 0);
  CHECK(test::read_file(dir.path() / "build" / "classroom-scan.json").find("\"version\": 1") !=
        std::string::npos);

  const std::pair<std::string, std::string> not_graded[] = {
      {"", "gpulab exited with status 127"},                          // no gpulab: the build failed
      {writes_result_then("exit 1"), "gpulab exited with status 1"},  // the grader failed
      {writes_result_then("exit 3"), "gpulab exited with status 3"},  // it was stopped
      {writes_result_then("kill -KILL $$"), "gpulab was killed by SIGKILL"},
      {"exit 0", "gpulab exited with status 0"},  // no result, whatever it said
  };
  for (const auto& [gpulab, why] : not_graded) {
    CAPTURE(gpulab);
    const Step s = run_step(w, "scan", dir.path(), gpulab);
    INFO(s.log);
    CHECK(s.status != 0);
    CHECK(s.output.empty());
    CHECK(test::contains(
        s.log, "::error title=gpulab could not grade scan::" + why + ", so no points are posted"));
  }
}

TEST_CASE("classroom workflow: a template out of step with its filler is refused, named") {
  CHECK_THROWS_WITH(gpulab::classroom_workflow("steps:\n@GPULAB_LAB_STEPS@@GPULAB_TIMEOUT@\n",
                                               "- id: @GPULAB_STEP_ID@\n", {"scan"}),
                    doctest::Contains("classroom.yml has a placeholder gpulab does not fill: "
                                      "@GPULAB_TIMEOUT@"));
  CHECK_THROWS_WITH(
      gpulab::classroom_workflow("@GPULAB_LAB_STEPS@", "- id: @GPULAB_LAB_ID@\n", {"scan"}),
      doctest::Contains("lab-step.yml has a placeholder"));
}
