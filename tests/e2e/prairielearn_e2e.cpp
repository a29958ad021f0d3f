// End-to-end: the PrairieLearn external grader, run the way PrairieLearn's external grading runs
// it, without docker: `gpulab package prairielearn` writes the question and the image's context,
// a folder laid out like the container's /grade (student/, tests/ from the question,
// data/data.json) stands in for it, and the image's entrypoint grades it on the CPU backend with
// this build's gpulab. A correct scan scores 1, the stub 0, code that does not compile is not
// gradable, with the compiler's words, and the question's time budget reaches gpulab.
#include <doctest/doctest.h>

#include <fstream>

#include "e2e_util.h"

namespace {

using namespace e2e;

bool has(const json& text, const std::string& part) {
  return text.get<std::string>().find(part) != std::string::npos;
}

}  // namespace

TEST_SUITE("prairielearn") {
  TEST_CASE("the PrairieLearn grader grades a /grade folder on the CPU backend") {
    const fs::path dir = scratch("prairielearn");
    const std::string seed = "prairielearn-e2e-seed-0123456789";
    const auto made =
        run_command({GPULAB_TEST_BINARY, "package", "prairielearn", "scan", "--hidden-seed", seed,
                     "--image-account", "my-course", "--out", (dir / "package").string()},
                    dir);
    INFO(made.output);
    REQUIRE(made.exit_code == 0);
    // The name info.json gives and the printed build line: an account part, PrairieLearn's
    // platform.
    CHECK(
        made.output.find("docker build --platform linux/amd64 -t my-course/gpulab-prairielearn:") !=
        std::string::npos);
    const fs::path entrypoint = dir / "package" / "image" / "entrypoint";
    REQUIRE((fs::status(entrypoint).permissions() & fs::perms::owner_exec) != fs::perms::none);

    // PrairieLearn's container: the question's tests/, the student's files, the question's data.
    const fs::path root = dir / "grade";
    fs::create_directories(root);
    fs::copy(dir / "package" / "question" / "tests", root / "tests", fs::copy_options::recursive);
    fs::create_directories(root / "data");
    std::ofstream(root / "data" / "data.json")
        << R"({"params": {}, "correct_answers": {}, "submitted_answers": {}, "format_errors": {},)"
        << R"( "partial_scores": {}, "score": 0, "feedback": {}, "variant_seed": 1, "options": {},)"
        << R"( "raw_submitted_answers": {}, "editable": false, "panel": "question", "extensions": {}})";
    const std::vector<std::string> env = {
        "GPULAB_PRAIRIELEARN_ROOT=" + root.string(),
        std::string("GPULAB_PRAIRIELEARN_GPULAB=") + GPULAB_TEST_BINARY};
    const auto grade_with = [&](const fs::path& file) {
      fs::remove_all(root / "student");
      fs::remove_all(root / "results");
      fs::create_directories(root / "student");
      fs::copy_file(file, root / "student" / "scan.cu");
      const auto r = run_command({entrypoint.string()}, root, env);
      INFO(r.output);
      CHECK(r.exit_code == 0);  // PrairieLearn reads the results, whatever the grading gave
      CHECK(!said(r, "no hidden seed given"));  // graded with the question's seed
      CHECK(read_text(root / "results" / "results.json").find(seed) == std::string::npos);
      return read_report(root / "results" / "results.json");
    };

    const json correct = grade_with(kSource / "reference" / "scan" / "scan.cu");
    INFO(correct.dump(1));
    CHECK(correct["gradable"] == true);
    CHECK(correct["score"] == 1.0);
    CHECK(correct["tests"].size() >= 10);
    for (const auto& t : correct["tests"]) CHECK(t["points"] == t["max_points"]);
    // A test on hidden datasets: its points and how many passed, no dataset named.
    const json hidden = test_named(correct, "exclusive: correctness on the hidden");
    CHECK(has(hidden["message"], "hidden datasets passed"));
    CHECK(hidden["output"] == "");

    const json stub = grade_with(kSource / "labs" / "scan" / "scan.cu");
    CHECK(stub["gradable"] == true);
    CHECK(stub["score"] == 0.0);
    CHECK(stub["tests"].size() == correct["tests"].size());

    const json broken =
        grade_with(kSource / "tests" / "submissions" / "scan" / "compile-error" / "scan.cu");
    CHECK(broken["gradable"] == false);
    CHECK(broken["score"] == 0.0);
    CHECK(has(broken["message"], "did not build"));
    CHECK(has(broken["output"], "scan.cu:7:48: error"));
    CHECK(broken["tests"].empty());

    // The question's time budget reaches gpulab: the package's (its 600 s timeout less a margin),
    // and a question given 1 s has the build stopped, every part not graded, still gradable.
    CHECK(read_text(root / "tests" / "time-budget") == "540\n");
    std::ofstream(root / "tests" / "time-budget") << "1\n";
    const json out_of_time = grade_with(kSource / "reference" / "scan" / "scan.cu");
    CHECK(out_of_time["gradable"] == true);
    CHECK(out_of_time["score"] == 0.0);
    CHECK(has(out_of_time["message"], "Not every part was graded"));
    CHECK(out_of_time["tests"].size() == 5);  // a test per part
    for (const auto& t : out_of_time["tests"]) CHECK(has(t["name"], ": not graded: time budget"));

    std::ofstream(root / "tests" / "time-budget") << "540\n";

    // A grading that ends in no grade is not gradable (PrairieLearn records no score), with the
    // reason in the job's log: gpulab could not run (an image whose build failed), the grader
    // failed, gpulab was killed, PrairieLearn stopped the grader. The real gpulab grades the
    // stub, ended so by a stand-in (interrupted_gpulab.sh) in a /grade folder each.
    const std::vector<std::string> endings = {"missing", "fail", "kill", "stop-wrapper"};
    std::vector<Command> gradings;
    for (const auto& ending : endings) {
      const fs::path r = dir / ("grade-" + ending);
      fs::create_directories(r / "student");
      fs::copy(root / "tests", r / "tests", fs::copy_options::recursive);
      fs::copy_file(kSource / "labs" / "scan" / "scan.cu", r / "student" / "scan.cu");
      const fs::path gpulab = ending == "missing"
                                  ? dir / "missing"
                                  : kSource / "tests" / "e2e" / "interrupted_gpulab.sh";
      gradings.push_back(
          {{entrypoint.string()},
           r,
           {"GPULAB_PRAIRIELEARN_ROOT=" + r.string(),
            "GPULAB_PRAIRIELEARN_GPULAB=" + gpulab.string(), "GPULAB_TEST_ENDING=" + ending,
            std::string("GPULAB_TEST_GPULAB=") + GPULAB_TEST_BINARY}});
    }
    const std::vector<gpulab::ProcessResult> ended = run_commands(gradings);
    const std::vector<std::string> why = {
        "gpulab exited with status 127", "gpulab exited with status 1",
        "gpulab was killed by SIGKILL",
        "the grader was stopped by SIGTERM; gpulab exited with status 3"};
    for (size_t i = 0; i < endings.size(); ++i) {
      CAPTURE(endings[i]);
      INFO(ended[i].output);
      CHECK(ended[i].exit_code == 0);  // PrairieLearn reads the results
      CHECK(said(ended[i], "gpulab grader: no score given: " + why[i]));
      const json none = read_report(dir / ("grade-" + endings[i]) / "results" / "results.json");
      CHECK(none["gradable"] == false);
      CHECK(none["tests"].empty());
      CHECK(has(none["message"], "The grader could not grade this submission: " + why[i]));
      CHECK(ended[i].output.find(seed) == std::string::npos);
    }
    CHECK(said(ended[1], "does not exist"));              // gpulab's own words, in the log
    CHECK(said(ended[3], "grading stopped by SIGTERM"));  // gpulab stopped by the entrypoint
  }
}
