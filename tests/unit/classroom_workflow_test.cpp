// The GitHub Classroom workflow of `gpulab dist --github-classroom` (classroom_workflow.h): its
// labs, their step ids, and the text filled from packaging/github-classroom/.
#include "classroom_workflow.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "platform_time.h"
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
  CHECK(w.find("cmake --workflow --preset student") != std::string::npos);
  // Each lab's step, in order, runs gpulab on the CPU backend into a result of its own.
  const auto sg = w.find(
      "        id: scattergather\n"
      "        if: always()\n"
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

// The reporter reads every runner's result and fails whole on one that is missing: a lab whose
// step failed, or was skipped after a failed step, posted no points for any lab.
TEST_CASE("classroom workflow: the reporter runs always, and every lab's step hands it a result") {
  const std::string w = gpulab::classroom_workflow(test::source_dir(), {"scatter-gather", "scan"});
  CHECK(w.find("      - name: Autograding reporter\n"
               "        if: always()\n"
               "        uses: classroom-resources/autograding-grading-reporter@v1\n") !=
        std::string::npos);
  // The scan step's script, run where gpulab cannot run (no build): an error result all the same.
  const auto at = w.find("        id: scan\n        if: always()\n        run: |\n");
  REQUIRE(at != std::string::npos);
  std::string script;
  std::istringstream lines(w.substr(w.find("run: |\n", at) + 7));
  for (std::string line; std::getline(lines, line) && line.rfind("          ", 0) == 0;)
    script += line.substr(10) + "\n";
  test::TempDir dir;
  test::write_file(dir / "step.sh", script);
  const std::string command = "cd '" + dir.path().string() +
                              "' && GITHUB_OUTPUT=out bash -e step.sh >/dev/null 2>&1 && "
                              "sed -n 's/^result=//p' out | base64 -d > result.json";
  REQUIRE(std::system(command.c_str()) == 0);
  const auto result = nlohmann::json::parse(test::read_file(dir / "result.json"));
  CHECK(result["status"] == "error");
  REQUIRE(result["tests"].size() == 1);
  CHECK(result["tests"][0]["status"] == "error");
  CHECK(test::contains(result["tests"][0]["message"], "gpulab could not grade scan"));
  CHECK(test::contains(result["tests"][0]["message"], "exit status 127"));
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
