// The student kit's GitHub Classroom workflow (gpulab dist --github-classroom), run the way
// GitHub runs it, here: its steps' command lines in order in the unpacked kit, each with its
// own GITHUB_OUTPUT file, but for the package installation and the build (the kit fixture has
// built the kit with the README's command, which must be the workflow's) and GitHub's cache of
// the compiler's outputs (its steps' keys, folder and order are checked). Each lab's result is
// then read as the autograding reporter reads it: the variable its step id names, base64.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "e2e_util.h"
#include "student_kit.h"
#include "text/text_edits.h"

using namespace e2e;
using gpulab::trimmed;

namespace {

// The workflow's YAML as JSON (python3-yaml; gpulab itself reads no YAML).
json read_yaml(const fs::path& file, const fs::path& dir) {
  const fs::path out = dir / (file.filename().string() + ".json");
  const auto parsed =
      run_command({"python3", "-c",
                   "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), "
                   "open(sys.argv[2], 'w'))",
                   file.string(), out.string()},
                  dir);
  REQUIRE_MESSAGE(parsed.exit_code == 0, parsed.output);
  return json::parse(read_text(out));
}

// NAME=VALUE lines of a GITHUB_OUTPUT file.
std::map<std::string, std::string> outputs_in(const fs::path& file) {
  std::map<std::string, std::string> out;
  std::istringstream in(read_text(file));
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    REQUIRE_MESSAGE(eq != std::string::npos, "not NAME=VALUE in GITHUB_OUTPUT: " << line);
    out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

TEST_SUITE("student-kit") {
  TEST_CASE(
      "the kit's GitHub Classroom workflow runs its labs and hands the reporter each result") {
    const StudentKit& kit = student_kit();
    const fs::path dir = scratch("kit-classroom");
    const fs::path file = kit.kit / ".github" / "workflows" / "classroom.yml";
    REQUIRE_MESSAGE(fs::is_regular_file(file), "the kit has no GitHub Classroom workflow");
    const json w = read_yaml(file, dir);
    CHECK(w["on"] == json({"push", "workflow_dispatch"}));
    CHECK(w["permissions"] ==
          json({{"checks", "write"}, {"actions", "read"}, {"contents", "read"}}));
    const json& job = w["jobs"]["autograding"];
    CHECK(job["runs-on"] == "ubuntu-24.04");

    std::smatch m;
    const std::string readme = read_text(kit.kit / "README.md");
    REQUIRE(std::regex_search(readme, m,
                              std::regex("<!-- gpulab-kit: build-sim -->\\s*```sh\\n([^`]*)```")));
    const std::string readme_build = trimmed(m[1]);

    std::map<std::string, std::string> results, lab_of, script_of;  // by step id
    int step_minutes = 0;                                           // the labs' steps' limits
    bool built = false, reported = false, cache_saved = false;
    json cache;  // the compiler cache's restore step
    for (const json& step : job["steps"]) {
      const std::string name = step.value("name", "");
      CAPTURE(name);
      const std::string uses = step.value("uses", "");
      const std::string run = step.value("run", "");
      if (uses.rfind("actions/checkout@", 0) == 0) continue;
      if (uses.rfind("actions/cache/restore@", 0) == 0) {
        // Not run (GitHub's cache is GitHub's): restored before the build, keyed on set-up
        // scripts the kit has, each commit's entry its own, the newest of those scripts' taken.
        CHECK(!built);
        cache = step;
        const std::string key = step["with"]["key"];
        const std::regex scripts("hashFiles\\(([^)]*)\\)");
        REQUIRE(std::regex_search(key, m, scripts));
        const std::string listed = m[1];
        const std::regex quoted("'([^']+)'");
        int n = 0;
        for (auto it = std::sregex_iterator(listed.begin(), listed.end(), quoted);
             it != std::sregex_iterator(); ++it, ++n)
          CHECK_MESSAGE(fs::is_regular_file(kit.kit / (*it)[1].str()), (*it)[1].str());
        CHECK(n >= 2);
        const std::string per_commit = "${{ github.sha }}";
        REQUIRE(key.size() > per_commit.size());
        CHECK(key.substr(key.size() - per_commit.size()) == per_commit);
        CHECK(step["with"]["restore-keys"] == key.substr(0, key.size() - per_commit.size()));
        continue;
      }
      if (uses.rfind("actions/cache/save@", 0) == 0) {
        // Saved after the build (a job with a failing test fails, and would save nothing at its
        // end), unless the restore found this very key.
        CHECK(built);
        REQUIRE(cache.is_object());
        const std::string id = cache["id"];
        CHECK(step["with"]["path"] == cache["with"]["path"]);
        CHECK(step["with"]["key"] == "${{ steps." + id + ".outputs.cache-primary-key }}");
        CHECK(step["if"] == "steps." + id + ".outputs.cache-hit != 'true'");
        cache_saved = true;
        continue;
      }
      if (run.find("scripts/setup.sh --packages-only") != std::string::npos) {
        // Not run (this machine has the packages); the scripts it runs are in the kit.
        const std::regex script("bash (\\S+)");
        for (auto it = std::sregex_iterator(run.begin(), run.end(), script);
             it != std::sregex_iterator(); ++it)
          CHECK_MESSAGE(fs::is_regular_file(kit.kit / (*it)[1].str()), (*it)[1].str());
        CHECK(run.find("apt-get install -y -qq ccache") != std::string::npos);  // the build's
        continue;
      }
      if (run.find("cmake") != std::string::npos) {
        CHECK(trimmed(run) == readme_build);  // the fixture built the kit with this
        // Through ccache, into the folder the cache restores (CMake reads the launchers from
        // the environment).
        REQUIRE(cache.is_object());
        CHECK(step["env"]["CMAKE_C_COMPILER_LAUNCHER"] == "ccache");
        CHECK(step["env"]["CMAKE_CXX_COMPILER_LAUNCHER"] == "ccache");
        CHECK(step["env"]["CCACHE_DIR"] == cache["with"]["path"]);
        built = true;
        continue;
      }
      if (uses.rfind("classroom-resources/autograding-grading-reporter@", 0) == 0) {
        // Every runner's result, from the variable the reporter reads (<ID>_RESULTS), after
        // the build and every lab's step.
        CHECK(built);
        std::istringstream runners(step["with"]["runners"].get<std::string>());
        std::set<std::string> named;
        for (std::string id; std::getline(runners, id, ',');) {
          CHECK(std::regex_match(id, std::regex("[a-zA-Z0-9]+")));  // the reporter's runner names
          CHECK(step["env"][upper(id) + "_RESULTS"] == "${{ steps." + id + ".outputs.result }}");
          CHECK_MESSAGE(results.count(id),
                        "no step " << id << " made a result before the reporter");
          named.insert(id);
        }
        CHECK(named.size() == results.size());  // every lab's step is a runner
        reported = true;
        continue;
      }
      // A lab's step: run as GitHub runs a `run:` (bash -e), in the kit, with its own output file.
      REQUIRE_MESSAGE(step.contains("id"), "a step the workflow should not have: " << step.dump());
      const std::string id = step["id"];
      REQUIRE(std::regex_search(run, m, std::regex("build/gpulab run (\\S+) --backend sim ")));
      lab_of[id] = m[1];
      // gpulab's time budget ends before the step's limit, and the job's holds every step.
      REQUIRE(step.contains("timeout-minutes"));
      step_minutes += step["timeout-minutes"].get<int>();
      std::smatch budget;
      REQUIRE(std::regex_search(run, budget, std::regex("--time-budget (\\d+) ")));
      CHECK(std::stod(budget[1]) < 60.0 * step["timeout-minutes"].get<int>());
      script_of[id] = run;
      const fs::path github_output = dir / (id + ".output");
      std::ofstream(github_output).close();
      const auto ran = run_command({"bash", "-e", "-c", run}, kit.kit,
                                   {"GITHUB_OUTPUT=" + github_output.string()});
      INFO(ran.output);
      CHECK(ran.exit_code == 0);  // failing tests do not fail the job's step
      const auto outputs = outputs_in(github_output);
      REQUIRE(outputs.count("result"));
      results[id] = outputs.at("result");
    }
    CHECK(built);
    CHECK(cache_saved);
    CHECK(reported);
    REQUIRE(lab_of.size() == 2);  // the fixture's --lab scatter-gather --lab scan
    CHECK(job["timeout-minutes"].get<int>() > step_minutes);

    for (const auto& [id, encoded] : results) {
      const std::string lab = lab_of[id];
      CAPTURE(lab);
      std::ofstream(dir / (id + ".b64")) << encoded;
      const auto decoded =
          run_command({"bash", "-c", "base64 -d \"$0\" > \"$1\"", (dir / (id + ".b64")).string(),
                       (dir / (id + ".github-classroom.json")).string()},
                      dir);
      REQUIRE_MESSAGE(decoded.exit_code == 0, decoded.output);
      const json r = read_report(dir / (id + ".github-classroom.json"));
      // The stub: every public test named, failed, worth nothing; the maximum what sim grades.
      CHECK(r["version"] == 1);
      CHECK(r["status"] == "fail");
      CHECK(r["max_score"].get<double>() > 0);
      std::set<std::string> names;
      for (const auto& t : r["tests"]) {
        CHECK(t["status"] == "fail");
        CHECK(t["score"] == 0);
        CHECK(t["line_no"] == 0);
        CHECK(!t["message"].get<std::string>().empty());
        names.insert(t["name"]);
      }
      std::set<std::string> expected;
      const json lab_json = json::parse(read_text(kit.kit / "labs" / lab / "lab.json"));
      for (const auto& part : lab_json["parts"])
        expected.insert(part["name"].get<std::string>() + ": correctness on the public datasets");
      CHECK(names == expected);
      // The headline says where it was graded, under the first failure.
      CHECK(r["tests"][0]["message"].get<std::string>().find("CPU backend") != std::string::npos);
      fs::remove(kit.kit / "build" / ("classroom-" + id + ".json"));
    }

    // A grading that ends in no grade fails its step and hands the reporter nothing, so the
    // reporter (which runs only when every step succeeded) posts no points: the grader failed,
    // gpulab was stopped, gpulab was killed. The kit's gpulab grades the stub, ended so by a
    // stand-in (interrupted_gpulab.sh) that is build/gpulab of a folder of its own.
    const std::vector<std::string> endings = {"fail", "stop", "kill"};
    std::vector<Command> steps;
    for (const auto& ending : endings) {
      const fs::path d = dir / ("ended-" + ending);
      fs::create_directories(d / "build");
      fs::copy_file(kSource / "tests" / "e2e" / "interrupted_gpulab.sh", d / "build" / "gpulab");
      std::ofstream(d / "output").close();
      steps.push_back({{"bash", "-e", "-c", script_of.at("scan")},
                       d,
                       {"GITHUB_OUTPUT=" + (d / "output").string(), "GPULAB_TEST_ENDING=" + ending,
                        "GPULAB_TEST_GPULAB=" + kit.gpulab.string()}});
    }
    const std::vector<gpulab::ProcessResult> ended = run_commands(steps);
    const std::vector<std::string> why = {"gpulab exited with status 1",
                                          "gpulab exited with status 3",
                                          "gpulab was killed by SIGKILL"};
    for (size_t i = 0; i < endings.size(); ++i) {
      CAPTURE(endings[i]);
      INFO(ended[i].output);
      CHECK(ended[i].exit_code != 0);
      CHECK(read_text(dir / ("ended-" + endings[i]) / "output").empty());
      CHECK(said(ended[i], "::error title=gpulab could not grade scan::" + why[i]));
    }
  }

  // A kit pushed to a student's repository (GitHub Classroom) leaves out what gpulab makes in
  // it: the build and what the README's commands write; the student's files stay in.
  TEST_CASE("the kit's .gitignore keeps the build and gpulab's outputs out of a repository") {
    const StudentKit& kit = student_kit();
    const fs::path repo = scratch("kit-gitignore");
    REQUIRE(fs::is_regular_file(kit.kit / ".gitignore"));
    fs::copy_file(kit.kit / ".gitignore", repo / ".gitignore");
    REQUIRE(run_command({"git", "init", "-q"}, repo).exit_code == 0);
    const auto ignored = [&](const std::string& path) {
      const auto p = run_command({"git", "check-ignore", "-q", "--no-index", path}, repo);
      REQUIRE_MESSAGE((p.exit_code == 0 || p.exit_code == 1), p.output);
      return p.exit_code == 0;
    };
    for (const char* made : {"build/gpulab", "build/cache/datasets/scan/x.npy", "results.json",
                             "results.gather.medium.error.png", "results.gather.medium.error.svg",
                             "kept/exclusive/int-1/out.npy", "data/public/int-1/in.npy"})
      CHECK_MESSAGE(ignored(made), made);
    for (const char* own : {"labs/scan/scan.cu", "labs/scatter-gather/dcs.cu", "README.md",
                            ".github/workflows/classroom.yml"})
      CHECK_FALSE_MESSAGE(ignored(own), own);
  }
}
