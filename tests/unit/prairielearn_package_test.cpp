// grader/package/prairielearn_package.h: the question folder (info.json, question.html, tests/ with
// the lab and the seed as given) and the image's build context (the Dockerfile and entrypoint
// filled in, gpulab's sources without reference/ or tests/).
#include "package/prairielearn_package.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "test_util.h"

namespace {

using nlohmann::json;
using test::contains;
using test::read_file;

gpulab::PrairieLearnPackage package(const std::string& lab, const std::filesystem::path& out) {
  return {lab, "a seed with 'quotes', $dollars\nand a second line", "course/gpulab-grader:1", out,
          ""};
}

json info(const std::filesystem::path& out) {
  return json::parse(read_file(out / "question" / "info.json"));
}

}  // namespace

TEST_CASE("prairielearn package: an external-graded question for the lab, the seed as given") {
  test::TempDir dir;
  std::ostringstream log;
  const auto p = package("scan", dir / "a");
  REQUIRE(gpulab::make_prairielearn_package(p, log) == 0);
  const json i = info(p.out);
  CHECK(i["gradingMethod"] == "External");
  CHECK(i["externalGradingOptions"]["enabled"] == true);
  CHECK(i["externalGradingOptions"]["image"] == "course/gpulab-grader:1");
  CHECK(i["externalGradingOptions"]["timeout"].get<int>() > 0);
  // The entrypoint info.json names is where the Dockerfile puts it.
  const std::string entrypoint = i["externalGradingOptions"]["entrypoint"];
  const std::string dockerfile = read_file(p.out / "image" / "Dockerfile");
  CHECK(contains(dockerfile, "COPY entrypoint " + entrypoint + "\n"));
  for (const char* f : {"Dockerfile", "entrypoint"}) {
    CAPTURE(f);
    CHECK(!contains(read_file(p.out / "image" / f), "@GPULAB_"));
  }
  CHECK(read_file(p.out / "question" / "tests" / "lab") == "scan");
  CHECK(read_file(p.out / "question" / "tests" / "hidden-seed") == p.hidden_seed);
  // The question's timeout, and beside it the time budget its gradings keep within (the
  // entrypoint passes it as --time-budget): the timeout less a margin.
  CHECK(i["externalGradingOptions"]["timeout"] == 600);
  CHECK(read_file(p.out / "question" / "tests" / "time-budget") == "540\n");
  CHECK(contains(read_file(p.out / "image" / "entrypoint"), "--time-budget \"$budget_s\""));
  CHECK(contains(log.str(), "Its gradings keep within 540 s for the question's timeout of 600 s"));
  const std::string html = read_file(p.out / "question" / "question.html");
  // The write-up (lab.json's "writeup") may come with the code, for the instructor to grade.
  CHECK(
      contains(html, "<pl-file-upload file-names=\"scan.cu\" optional-file-names=\"REPORT.md\">"));
  CHECK(contains(html, "your instructor grades it ("));
  CHECK(contains(html, "<pl-external-grader-results>"));
  for (const auto& text : {html, i.dump()}) CHECK(!contains(text, "dollars"));
  // gpulab's sources for the CPU backend, nothing instructor-only.
  CHECK(std::filesystem::is_regular_file(p.out / "image" / "gpulab" / "CMakeLists.txt"));
  CHECK(std::filesystem::is_regular_file(p.out / "image" / "gpulab" / "labs" / "scan" / "scan.cu"));
  for (const char* never : {"reference", "tests", "docs"}) {
    CAPTURE(never);
    CHECK(!std::filesystem::exists(p.out / "image" / "gpulab" / never));
  }
  // Built for PrairieLearn's x86-64 graders whatever machine builds it.
  CHECK(contains(log.str(), "docker build --platform linux/amd64 -t course/gpulab-grader:1 "));
  CHECK(contains(log.str(), "docker push course/gpulab-grader:1"));
}

TEST_CASE("prairielearn package: a course's own timeout, and the budget that follows it") {
  test::TempDir dir;
  std::ostringstream log;
  auto p = package("scan", dir / "a");
  p.timeout_s = 1200;
  REQUIRE(gpulab::make_prairielearn_package(p, log) == 0);
  CHECK(info(p.out)["externalGradingOptions"]["timeout"] == 1200);
  CHECK(read_file(p.out / "question" / "tests" / "time-budget") == "1140\n");
}

// A name without an account part (the old default, gpulab-prairielearn:<version>) can be
// neither pushed to the registry PrairieLearn pulls from nor synced.
TEST_CASE("prairielearn package: the image's name has an account part, from an option") {
  gpulab::PrairieLearnPackage p = package("scan", "unused");
  p.image.clear();
  CHECK_THROWS_WITH(gpulab::prairielearn_image(p),
                    doctest::Contains("needs an account part (the Docker Hub account"));
  p.image_account = "my-course";
  CHECK(gpulab::prairielearn_image(p) ==
        std::string("my-course/gpulab-prairielearn:") + GPULAB_VERSION);
  p.image_account = "my-course/x";
  CHECK_THROWS(gpulab::prairielearn_image(p));
  p.image = "gpulab-grader:1";
  CHECK_THROWS_WITH(gpulab::prairielearn_image(p), doctest::Contains("--image gpulab-grader:1"));
  p.image = "course/gpulab-grader:1";
  CHECK(gpulab::prairielearn_image(p) == "course/gpulab-grader:1");
}

TEST_CASE("prairielearn package: a lab's question keeps its UUID, and labs differ") {
  test::TempDir dir;
  std::ostringstream log;
  for (const char* out : {"a", "b"})
    gpulab::make_prairielearn_package(package("scan", dir / out), log);
  gpulab::make_prairielearn_package(package("scatter-gather", dir / "c"), log);
  const std::string uuid = info(dir / "a")["uuid"];
  CHECK(uuid.size() == 36);
  CHECK(uuid[14] == '5');
  CHECK(info(dir / "b")["uuid"] == uuid);
  CHECK(info(dir / "c")["uuid"] != uuid);
}

TEST_CASE("prairielearn package: refuses an out folder in use and an unknown lab") {
  test::TempDir dir;
  std::ostringstream log;
  test::write_file(dir / "used" / "notes.txt", "mine");
  CHECK_THROWS_WITH_AS(gpulab::make_prairielearn_package(package("scan", dir / "used"), log),
                       doctest::Contains("is not an empty folder"), std::runtime_error);
  CHECK(read_file(dir / "used" / "notes.txt") == "mine");
  CHECK_THROWS(gpulab::make_prairielearn_package(package("no-such-lab", dir / "new"), log));
}
