// End-to-end: what leaves the instructor's checkout. The Gradescope autograder (suite
// gradescope) is unpacked into a directory laid out like Gradescope's, set up with its own
// setup.sh and run with its run_autograder on a correct submission and the stub. The student kit
// (suite student-kit) is unpacked into an empty directory, built with its README's commands, and
// runs a lab on the CPU backend; neither holds anything instructor-only. Without reference/, as
// in the kit, `gpulab run` times a CPU part alone and says why (suite cpu).
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "e2e_util.h"
#include "student_kit.h"

namespace {

using namespace e2e;
using Clock = std::chrono::steady_clock;

// Every regular file under `root`, relative.
std::vector<fs::path> files_under(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), root));
  return files;
}

// Nothing instructor-only in an unpacked bundle: no reference/ or tests/ path, no file whose
// content is a reference source, no file holding `secret`.
void check_nothing_hidden(const fs::path& root, const std::string& secret) {
  std::set<std::string> reference_sources;
  for (const auto& e : fs::recursive_directory_iterator(kSource / "reference"))
    if (e.is_regular_file()) reference_sources.insert(read_text(e.path()));
  REQUIRE(!reference_sources.empty());
  const auto files = files_under(root);
  REQUIRE(files.size() > 50);
  for (const auto& f : files) {
    INFO(f);
    const std::string path = f.generic_string();
    CHECK(path.find("reference/") == std::string::npos);
    CHECK(path.find("tests/") == std::string::npos);
    CHECK(path.find("docs/GRADING.md") == std::string::npos);
    const std::string content = read_text(root / f);
    CHECK(reference_sources.count(content) == 0);
    if (!secret.empty()) CHECK(content.find(secret) == std::string::npos);
  }
}

// A seed no file of gpulab contains by chance.
std::string unique_seed() {
  std::random_device rd;
  return std::to_string(9000000000000000000ull + (static_cast<uint64_t>(rd()) << 20) + rd() % 997);
}

const fs::path kSubmissions = kSource / "tests" / "submissions" / "scatter-gather";

// Stands in for gpulab in a platform's wrapper and ends its grading as told (the script says
// how).
const fs::path kInterruptedGpulab = kSource / "tests" / "e2e" / "interrupted_gpulab.sh";

// The README's first command (the first line of its Quick start, after `&&`), as words, with
// this build's gpulab for `build/gpulab`; run from the source tree, as the README's reader does.
std::vector<std::string> readme_first_command() {
  const std::string readme = read_text(kSource / "README.md");
  std::smatch m;
  REQUIRE(std::regex_search(readme, m,
                            std::regex("## Quick start[\\s\\S]*?```sh\\n#[^\\n]*\\n([^\\n]*)\\n")));
  const std::string line = m[1];
  REQUIRE(line.find("&& ") != std::string::npos);
  std::istringstream words(line.substr(line.find("&& ") + 3));
  std::vector<std::string> argv;
  for (std::string w; words >> w;) argv.push_back(w == "build/gpulab" ? GPULAB_TEST_BINARY : w);
  REQUIRE(argv.size() > 2);
  return argv;
}

// `option`'s value in `argv` made `value`.
void set_option(std::vector<std::string>& argv, const std::string& option,
                const std::string& value) {
  const auto at = std::find(argv.begin(), argv.end(), option);
  REQUIRE_MESSAGE(at + 1 < argv.end(), "no " << option << " in the README's first command");
  *(at + 1) = value;
}

}  // namespace

TEST_SUITE("gradescope") {
  TEST_CASE("the Gradescope autograder sets up and grades in a directory laid out like it") {
    const fs::path dir = scratch("gradescope");
    const std::string seed = unique_seed();
    const auto made =
        run_command({GPULAB_TEST_BINARY, "package", "gradescope", "scatter-gather", "--out",
                     (dir / "autograder.zip").string(), "--hidden-seed", seed},
                    dir);
    INFO(made.output);
    REQUIRE(made.exit_code == 0);
    // The base image to choose is the one setup.sh is made for (and platform-image-check.sh
    // builds in).
    std::smatch base;
    const std::string setup_template = read_text(kSource / "packaging" / "gradescope" / "setup.sh");
    REQUIRE(std::regex_search(setup_template, base, std::regex("# gpulab-base-image: ([^\n]+)")));
    CHECK(made.output.find("base image " + base[1].str() + ". ") != std::string::npos);

    // Gradescope unpacks the zip into /autograder/source: setup.sh and run_autograder at its root.
    const fs::path root = dir / "autograder";
    const auto unzip = unpack_gradescope(dir / "autograder.zip", root);
    REQUIRE_MESSAGE(unzip.exit_code == 0, unzip.output);
    for (const char* script : {"setup.sh", "run_autograder"}) {
      INFO(script);
      REQUIRE(fs::is_regular_file(root / "source" / script));
      CHECK((fs::status(root / "source" / script).permissions() & fs::perms::owner_exec) !=
            fs::perms::none);
    }
    // The hidden seed is in the autograder's file of its own (it grades with it), in no script,
    // and nothing else hidden is.
    CHECK(read_text(root / "source" / "hidden-seed") == seed);
    CHECK(read_text(root / "source" / "run_autograder").find(seed) == std::string::npos);
    check_nothing_hidden(root / "source" / "gpulab", seed);

    const std::vector<std::string> env = {"GPULAB_AUTOGRADER_ROOT=" + root.string()};
    const auto t0 = Clock::now();
    const auto setup = run_command({"bash", (root / "source" / "setup.sh").string()}, root, env);
    const double setup_s = std::chrono::duration<double>(Clock::now() - t0).count();
    MESSAGE("Gradescope setup.sh took " << setup_s << " s");
    REQUIRE_MESSAGE(setup.exit_code == 0, setup.output);

    // Gradescope copies run_autograder to /autograder and runs it from there.
    fs::copy_file(root / "source" / "run_autograder", root / "run_autograder");
    // The course's policy (lab.json's "gradescope"), set in the autograder's copy of the lab:
    // 20% off per day begun past the due date, at most half; two submissions count.
    const fs::path lab_json = root / "source" / "gpulab" / "labs" / "scatter-gather" / "lab.json";
    REQUIRE(fs::is_regular_file(lab_json));
    json lab = json::parse(read_text(lab_json));
    lab["gradescope"] = {{"hidden_tests_visibility", "after_published"},
                         {"late_penalty", {{"per_day", 0.2}, {"max", 0.5}}},
                         {"submission_limit", 2}};
    std::ofstream(lab_json) << lab.dump(2);
    // Gradescope grades each submission in a fresh container: here an autograder root of its own
    // (submission/, results/, submission_metadata.json where `metadata` is not null, its copy of
    // run_autograder) beside the set-up one's source/, so the submissions are graded at once.
    std::vector<Command> gradings;
    const auto submit = [&](const std::string& name, const fs::path& file,
                            const json& metadata = nullptr) {
      const fs::path r = dir / name;
      fs::create_directories(r / "submission");
      fs::create_directories(r / "results");
      if (!fs::exists(r / "source")) fs::create_directory_symlink(root / "source", r / "source");
      if (!fs::exists(r / "run_autograder"))
        fs::copy_file(root / "source" / "run_autograder", r / "run_autograder");
      fs::copy_file(file, r / "submission" / "dcs.cu");
      if (!metadata.is_null()) std::ofstream(r / "submission_metadata.json") << metadata.dump();
      gradings.push_back(
          {{(r / "run_autograder").string()}, r, {"GPULAB_AUTOGRADER_ROOT=" + r.string()}});
      return r / "results" / "results.json";
    };
    const json assignment = {{"due_date", "2026-11-20T23:00:00.000000-08:00"},
                             {"late_due_date", nullptr},
                             {"release_date", "2026-11-01T00:00:00.000000-08:00"},
                             {"title", "Lab 1"},
                             {"total_points", "60.0"}};
    const json user = {{"email", "student@example.com"}, {"id", 1234}, {"name", "A Student"}};
    // Late by a day and a half: two days begun, 40% off; the tests keep their points.
    const fs::path correct_results = submit("autograder", kSubmissions / "alt-correct" / "dcs.cu",
                                            {{"id", 1},
                                             {"created_at", "2026-11-22T11:00:00.000000-08:00"},
                                             {"assignment", assignment},
                                             {"submission_method", "upload"},
                                             {"users", {user}},
                                             {"previous_submissions", json::array()}});
    const fs::path stub_results =
        submit("autograder-stub", kSource / "labs" / "scatter-gather" / "dcs.cu");
    // A third submission, on time, past the limit of two: the latest earlier one's score, with
    // this one's feedback.
    const fs::path packaged_results =
        submit("autograder-third", kSubmissions / "alt-correct" / "dcs.cu",
               {{"id", 3},
                {"created_at", "2026-11-19T10:00:00.000000-08:00"},
                {"assignment", assignment},
                {"submission_method", "upload"},
                {"users", {user}},
                {"previous_submissions",
                 {{{"submission_time", "2026-11-18T10:00:00.000000-08:00"}, {"score", 7.5}},
                  {{"submission_time", "2026-11-17T10:00:00.000000-08:00"}, {"score", "30.0"}}}}});
    // The hidden datasets are the instructor's seed's: the same as gpulab grade with that seed,
    // here the README's first command (the same submission), given the seed.
    std::vector<std::string> readme = readme_first_command();
    set_option(readme, "--out", (dir / "local.json").string());
    readme.insert(readme.end(), {"--hidden-seed", seed});
    gradings.push_back({readme, kSource});
    // A grading that ends in no grade leaves no results.json, Gradescope's own failure state
    // ("the autograder failed"), and its reason in the log: the grader failed, gpulab was killed,
    // Gradescope stopped the autograder. The real gpulab that setup.sh built grades the stub,
    // ended so by a stand-in (interrupted_gpulab.sh).
    const std::vector<std::string> endings = {"fail", "kill", "stop-wrapper"};
    for (const auto& ending : endings) {
      const fs::path r = dir / ("autograder-" + ending);
      fs::create_directories(r / "submission");
      fs::create_directories(r / "results");
      fs::create_directories(r / "source" / "gpulab" / "build");
      fs::copy_file(kInterruptedGpulab, r / "source" / "gpulab" / "build" / "gpulab");
      fs::copy_file(root / "source" / "hidden-seed", r / "source" / "hidden-seed");
      fs::copy_file(root / "source" / "run_autograder", r / "run_autograder");
      fs::copy_file(kSource / "labs" / "scatter-gather" / "dcs.cu", r / "submission" / "dcs.cu");
      gradings.push_back(
          {{(r / "run_autograder").string()},
           r,
           {"GPULAB_AUTOGRADER_ROOT=" + r.string(), "GPULAB_TEST_ENDING=" + ending,
            "GPULAB_TEST_GPULAB=" + (root / "source" / "gpulab" / "build" / "gpulab").string()}});
    }
    const std::vector<gpulab::ProcessResult> graded = run_commands(gradings);
    const auto results_of = [&](size_t i, const fs::path& results) {
      INFO(graded[i].output);
      CHECK(graded[i].exit_code == 0);
      return read_report(results);
    };

    const json correct = results_of(0, correct_results);
    CHECK(score(correct) == doctest::Approx(0.6 * max_score(correct)));
    CHECK(score(correct) > 0);
    CHECK(output_says(correct, "2 days late"));
    CHECK(output_says(correct, "40% off"));
    CHECK(test_named(correct, "gather: correctness on the hidden").at("visibility") ==
          "after_published");
    CHECK(output_says(correct, "shown once your instructor publishes the grades"));
    CHECK(correct.at("extra_data").at("gpulab").at("backend") == "sim");
    check_full_correctness(correct, "gather");
    const json stub = results_of(1, stub_results);
    CHECK(score(stub) == 0);
    CHECK(max_score(stub) == max_score(correct));
    CHECK(contains(test_named(stub, "gather: correctness on the public"), "never written"));
    REQUIRE_MESSAGE(graded[3].exit_code == 0, graded[3].output);
    const json packaged = results_of(2, packaged_results);
    CHECK(score(packaged) == 7.5);
    CHECK(output_says(packaged, "past the course's limit of 2"));
    CHECK(packaged.at("tests").size() == read_report(dir / "local.json").at("tests").size());
    // The instructors' details name each hidden dataset's largest error, which another seed
    // would change.
    const json local = read_report(dir / "local.json");
    for (const char* t : {"gather: hidden dataset details", "cpu_fast: hidden dataset details"})
      CHECK(test_named(packaged, t)["output"] == test_named(local, t)["output"]);
    // The README's first command grades every part of its example, on this machine whatever
    // it has (a GPU or not).
    CHECK(score(local) == max_score(local));
    for (const char* part : {"scatter", "gather", "cpu_fast"}) check_full_correctness(local, part);
    CHECK_FALSE(output_says(local, "not graded (no GPU)"));

    for (size_t i = 0; i < endings.size(); ++i) {
      const gpulab::ProcessResult& p = graded[4 + i];
      CAPTURE(endings[i]);
      INFO(p.output);
      CHECK(p.exit_code != 0);
      CHECK_FALSE(fs::exists(dir / ("autograder-" + endings[i]) / "results" / "results.json"));
      CHECK(said(p, "gpulab autograder: no score given: "));
      CHECK(said(p, "Gradescope shows that the autograder failed"));
      // The shell's line for a killed job, which quotes the command line, is not in the log.
      CHECK_FALSE(said(p, seed));
    }
    CHECK(said(graded[4], "gpulab exited with status 1"));
    CHECK(said(graded[4], "does not exist"));  // gpulab's own words, in the log
    CHECK(said(graded[5], "gpulab was killed by SIGKILL"));
    CHECK(said(graded[6], "this autograder was stopped by SIGTERM; gpulab exited with status 3"));
    CHECK(said(graded[6], "grading stopped by SIGTERM"));
  }
}

TEST_SUITE("student-kit") {
  TEST_CASE("the student kit builds with its README's commands and runs a lab, nothing hidden") {
    const StudentKit& k = student_kit();
    check_nothing_hidden(k.kit, k.seed);
    CHECK(fs::is_regular_file(k.kit / "handouts" / "scatter-gather.md"));
    CHECK(fs::is_regular_file(k.kit / "labs" / "scatter-gather" / "dcs.cu"));

    // The stub runs and scores zero, on the CPU backend, the default of this build.
    const auto stub = run_in_kit(
        {k.gpulab.string(), "run", "scatter-gather", "--out", (k.root / "stub.json").string()});
    INFO(stub.output);
    CHECK(stub.exit_code != 0);  // every test failed
    const json s = read_report(k.root / "stub.json");
    CHECK(s.at("extra_data").at("gpulab").at("backend") == "sim");
    CHECK(score(s) == 0);
    CHECK(contains(test_named(s, "gather: correctness on the public"), "never written"));
    // A student's finished file passes the public datasets; hidden ones are not run.
    const KitFile done_file("labs/scatter-gather/dcs.cu", kSubmissions / "alt-correct" / "dcs.cu");
    const auto done = run_in_kit({k.gpulab.string(), "run", "scatter-gather", "--backend", "sim",
                                  "--out", (k.root / "done.json").string()});
    INFO(done.output);
    CHECK(done.exit_code == 0);
    const json d = read_report(k.root / "done.json");
    CHECK(score(d) == max_score(d));
    CHECK(score(d) > 0);
    for (const auto& t : d.at("tests"))
      CHECK(t.at("name").get<std::string>().find("hidden") == std::string::npos);
  }
}

TEST_SUITE("cpu") {
  TEST_CASE("without reference/, as in the student kit, run times a CPU part alone and says why") {
    // A source tree with the lab but no reference/, and a build tree with the libraries but no
    // prebuilt reference runner.
    const fs::path dir = scratch("no-reference");
    fs::create_directories(dir / "src" / "labs");
    fs::copy(kSource / "labs" / "scatter-gather", dir / "src" / "labs" / "scatter-gather",
             fs::copy_options::recursive);
    fs::copy(kSource / "harness", dir / "src" / "harness", fs::copy_options::recursive);
    const fs::path build = fs::path(GPULAB_TEST_BINARY).parent_path();
    fs::create_directories(dir / "build");
    // The cache may not exist yet (a fresh build): a link to nowhere would stop the grader.
    fs::create_directories(build / "cache");
    for (const char* sub : {"lib", "bin", "cache"})
      fs::create_directory_symlink(build / sub, dir / "build" / sub);
    const Graded g = e2e::grade(
        "scatter-gather", kSource / "tests" / "submissions" / "scatter-gather" / "alt-correct",
        {"--part", "cpu_fast"}, 600,
        {"GPULAB_SOURCE_DIR=" + (dir / "src").string(),
         "GPULAB_BUILD_DIR=" + (dir / "build").string()});
    INFO(g.process.output);
    CHECK_FALSE(g.report.at("extra_data").contains("grader_error"));
    const json perf = test_named(g.report, "cpu_fast: performance");
    CHECK(contains(perf, "no reference solution here"));
    CHECK(perf.at("max_score") == 0);
    CHECK(perf.at("extra_data").at("student_ms").get<double>() > 0);
    check_full_correctness(g.report, "cpu_fast");
  }
}
