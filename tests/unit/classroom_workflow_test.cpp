// The GitHub Classroom workflow of `gpulab dist --github-classroom` (classroom_workflow.h): its
// labs, their step ids, and the text filled from packaging/github-classroom/.
#include "classroom_workflow.h"

#include <doctest/doctest.h>

#include <regex>

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
      "        run: |\n"
      "          rm -f build/classroom-scattergather.json\n");
  const auto scan = w.find(
      "build/gpulab run scan --backend sim --format github-classroom "
      "--out build/classroom-scan.json || status=$?");
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

TEST_CASE("classroom workflow: a template out of step with its filler is refused, named") {
  CHECK_THROWS_WITH(gpulab::classroom_workflow("steps:\n@GPULAB_LAB_STEPS@@GPULAB_TIMEOUT@\n",
                                               "- id: @GPULAB_STEP_ID@\n", {"scan"}),
                    doctest::Contains("classroom.yml has a placeholder gpulab does not fill: "
                                      "@GPULAB_TIMEOUT@"));
  CHECK_THROWS_WITH(
      gpulab::classroom_workflow("@GPULAB_LAB_STEPS@", "- id: @GPULAB_LAB_ID@\n", {"scan"}),
      doctest::Contains("lab-step.yml has a placeholder"));
}
