// End-to-end: the sandbox, with the real gpulab binary. The hostile submissions of
// tests/adversarial/scatter-gather/sandbox-* (each with the expect.json that the adversarial
// suite checks: the tests/submissions convention, see labs_e2e.cpp) try, at run time, to read
// expected outputs, reference sources and the grader's secrets, to write outside their output
// directory, to reach a network, to fork without end, and at compile time to #include the
// reference. Each prints what it found; here every report must show the attack failing, and
// nothing of what it was after. One of them is also graded without the sandbox, where the same
// attack succeeds: the tests below can fail. And without bubblewrap, grading is refused with a
// valid report and no score unless --allow-unsandboxed is given. The CPU part of scatter-gather
// on the CPU backend keeps these fast; the compile-time cases run nvcc too (no GPU needed).
// segmented-scan/dlopen-libraries, whose every dlopen fails in a run's sandbox (the adversarial
// suite), is graded here without it, where they load.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "e2e_util.h"
#include "expect.h"
#include "files/paths.h"

namespace {

using namespace e2e;

const fs::path kAdversarial = kSource / "tests" / "adversarial" / "scatter-gather";
const std::vector<std::string> kSimCpuPart = {"--backend", "sim", "--part", "cpu_fast",
                                              "--no-time"};
const std::string kNoBwrap = "GPULAB_BWRAP=/nonexistent/bwrap";

// Grades a sandbox-* submission on the CPU part; both correctness groups must score zero (it
// computes nothing) and the public one's output must hold the submission's own verdict.
json attack_fails(const std::string& name, const std::string& verdict,
                  std::vector<std::string> env = {}) {
  const Graded g = grade("scatter-gather", kAdversarial / name, kSimCpuPart, 300, std::move(env));
  CHECK(g.process.exit_code == 0);
  CHECK(g.report["extra_data"]["gpulab"]["sandbox"]["enabled"] == true);
  const json pub = test_named(g.report, "cpu_fast: correctness on the public");
  CHECK_MESSAGE(pub["score"] == 0, pub.dump(2));
  CHECK_MESSAGE(contains(pub, "gpulab-adversarial: " + verdict), pub.dump(2));
  CHECK(test_named(g.report, "cpu_fast: correctness on the hidden")["score"] == 0);
  return g.report;
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// The processes whose name is `name` (at most `wait_s` seconds are given for them to end).
int processes_named(const std::string& name, double wait_s) {
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    int n = 0;
    for (const auto& e : fs::directory_iterator("/proc")) {
      std::ifstream in(e.path() / "comm");
      std::string comm;
      if (std::getline(in, comm) && comm == name) ++n;
    }
    if (n == 0 || std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(wait_s))
      return n;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace

TEST_SUITE("sandbox") {
  TEST_CASE("a run cannot reach the expected outputs, and the report says it was sandboxed") {
    const json report = attack_fails("sandbox-read-expected", "no expected output was reachable");
    const json& sandbox = report["extra_data"]["gpulab"]["sandbox"];
    CHECK(sandbox["bwrap"].get<std::string>().rfind("bubblewrap ", 0) == 0);
    CHECK_FALSE(sandbox.contains("problem"));
  }

  TEST_CASE("without the sandbox the same submission copies the expected outputs, unless root") {
    // What the test above guards against: allowed to run unsandboxed under a grader that is not
    // root, the attack scores (the run is the grader's user). Under a root grader (a course
    // platform's container) the run is a user of its own, and the dataset cache is closed to it
    // (tests/e2e/hosted_secrets_e2e.cpp tries the platforms' layouts).
    std::vector<std::string> args = kSimCpuPart;
    args.push_back("--allow-unsandboxed");
    const Graded g =
        grade("scatter-gather", kAdversarial / "sandbox-read-expected", args, 300, {kNoBwrap});
    CHECK(g.process.exit_code == 0);
    const json& sandbox = g.report["extra_data"]["gpulab"]["sandbox"];
    CHECK(sandbox["enabled"] == false);
    CHECK(sandbox["unsandboxed_allowed"] == true);
    CHECK(sandbox["problem"].get<std::string>().find("/nonexistent/bwrap") != std::string::npos);
    CHECK(g.process.output.find("WITHOUT the sandbox") != std::string::npos);
    if (geteuid() == 0) {
      CHECK(sandbox["own_user"] == true);
      const json pub = test_named(g.report, "cpu_fast: correctness on the public");
      CHECK_MESSAGE(pub["score"] == 0, pub.dump(2));
      CHECK_MESSAGE(contains(pub, "gpulab-adversarial: no expected output was reachable"),
                    pub.dump(2));
      CHECK(test_named(g.report, "cpu_fast: correctness on the hidden")["score"] == 0);
    } else {
      CHECK_FALSE(sandbox.contains("own_user"));
      check_full_correctness(g.report, "cpu_fast");
    }
  }

  TEST_CASE("without the sandbox, libraries outside the runner's closure load") {
    // What segmented-scan/dlopen-libraries guards against (the adversarial suite grades it
    // sandboxed, where every dlopen fails): a run that sees the whole system loads them, and the
    // submission, which then computes the honest answer, passes.
    const fs::path dir = kSource / "tests" / "adversarial" / "segmented-scan" / "dlopen-libraries";
    const Expected e{"segmented-scan", "dlopen-libraries", dir,
                     json::parse(read_text(dir / "expect.json"))};
    const Graded g =
        grade("segmented-scan", materialize(e),
              {"--backend", "sim", "--part", "spmv", "--no-time", "--allow-unsandboxed"}, 300,
              {kNoBwrap});
    CHECK(g.process.exit_code == 0);
    const json pub = test_named(g.report, "spmv: correctness on the public");
    CHECK_MESSAGE(pub["score"] == pub["max_score"], pub.dump(2));
  }

  TEST_CASE("a run cannot read reference sources, so none reaches the report") {
    const json report = attack_fails("sandbox-read-reference", "no reference source was reachable");
    const std::string line = first_line(kSource / "reference" / "scatter-gather" / "dcs.cu");
    REQUIRE(line.size() > 20);
    CHECK(report.dump().find(line) == std::string::npos);
  }

  TEST_CASE("a run can write nothing outside its output directory") {
    attack_fails("sandbox-write-outside", "nothing written outside its output directory");
  }

  TEST_CASE("a run has no network") {
    attack_fails("sandbox-network", "no network");
  }

  TEST_CASE("a run sees neither the hidden seed nor the grader's command line") {
    attack_fails("sandbox-grader-secrets", "no grader secret was visible",
                 {"GPULAB_HIDDEN_SEED=7"});
  }

  TEST_CASE("a fork bomb is ended at its first fork, and the report says why") {
    // Runs may start no process (grader/os/seccomp_filter.h): its first fork ends it with SIGSYS.
    const Graded g = grade("scatter-gather", kAdversarial / "sandbox-fork-bomb", kSimCpuPart, 300);
    CHECK(g.process.exit_code == 0);
    const json pub = test_named(g.report, "cpu_fast: correctness on the public");
    CHECK_MESSAGE(pub["score"] == 0, pub.dump(2));
    CHECK_MESSAGE(contains(pub, "tried to start a new process"), pub.dump(2));
    CHECK_MESSAGE(contains(pub, "signal 31"), pub.dump(2));
    CHECK(processes_named("gpulab-bomb", 5) == 0);
  }

  TEST_CASE("a compile step cannot #include a reference source") {
    const fs::path relative = kAdversarial / "sandbox-include-reference";
    // The same through an absolute path, as a student who knows the grader's checkout would.
    const fs::path absolute = scratch("include-reference-absolute") / "submission";
    fs::create_directories(absolute);
    std::ofstream(absolute / "dcs.cu")
        << "#include \"" << (kSource / "reference" / "scatter-gather" / "dcs.cu").string()
        << "\"\n";
    struct Case {
      fs::path submission;
      std::string backend, not_found;
    };
    std::vector<Case> cases = {{relative, "sim", "file not found"},
                               {absolute, "sim", "file not found"}};
    // nvcc (its host compiler's preprocessor) where gpulab is built for the CUDA backend.
    if (fs::exists(gpulab::Paths::current().harness_lib(gpulab::Backend::cuda)))
      cases.push_back({relative, "cuda", "No such file or directory"});
    for (const Case& c : cases) {
      INFO(c.submission.string() << " on " << c.backend);
      const Graded g = grade("scatter-gather", c.submission,
                             {"--backend", c.backend, "--part", "cpu_fast", "--no-time"}, 300);
      CHECK(g.process.exit_code == 0);
      CHECK(score(g.report) == 0);
      const json t = test_named(g.report, "cpu_fast: does not build");
      CHECK_MESSAGE(contains(t, "reference/scatter-gather/dcs.cu"), t.dump(2));
      CHECK_MESSAGE(contains(t, c.not_found), t.dump(2));
    }
  }

  TEST_CASE("without bubblewrap, grading is refused: a valid report, no score, the reason") {
    const Graded g = grade("scatter-gather",
                           kSource / "tests" / "submissions" / "scatter-gather" / "alt-correct",
                           kSimCpuPart, 300, {kNoBwrap});
    CHECK(g.process.exit_code == 1);
    CHECK_FALSE(g.report.contains("score"));
    CHECK(g.report["tests"].empty());
    CHECK(g.report["extra_data"]["gpulab"]["sandbox"]["enabled"] == false);
    const std::string error = g.report["extra_data"]["grader_error"];
    CHECK(error.find("cannot be sandboxed") != std::string::npos);
    CHECK(error.find("--allow-unsandboxed") != std::string::npos);
    CHECK(g.report["output"].get<std::string>().find("no score was given") != std::string::npos);
    // Said loudly to the instructor on the terminal too.
    CHECK(g.process.output.find("error (instructor)") != std::string::npos);
  }

  TEST_CASE("a failure of the sandbox's set-up is the grader's error, in a valid report") {
    // A work folder the sandbox's user cannot reach (root grades through a user of the run's
    // own, which is not allowed into a folder closed to others).
    const fs::path closed = scratch("closed-work-dir") / "closed";
    fs::create_directories(closed / "work");
    fs::permissions(closed, fs::perms::owner_all);
    std::vector<std::string> args = kSimCpuPart;
    args.insert(args.end(), {"--work-dir", (closed / "work").string()});
    const Graded g =
        grade("scatter-gather",
              kSource / "tests" / "submissions" / "scatter-gather" / "alt-correct", args, 300);
    if (geteuid() == 0) {
      CHECK(g.process.exit_code == 1);
      CHECK_FALSE(g.report.contains("score"));
      CHECK(g.report["extra_data"]["grader_error"].get<std::string>().find(
                "not searchable by other users") != std::string::npos);
    } else {
      // A grader that is not root sandboxes as itself, and reaches its own folders.
      CHECK(g.process.exit_code == 0);
      check_full_correctness(g.report, "cpu_fast");
    }
  }

  TEST_CASE("gpulab run without bubblewrap runs the student's code with a note, or refuses") {
    const fs::path dir = scratch("run-unsandboxed");
    const fs::path src = kSource / "tests" / "submissions" / "scatter-gather" / "alt-correct";
    for (const bool require : {false, true}) {
      std::vector<std::string> argv = {GPULAB_TEST_BINARY,
                                       "run",
                                       "scatter-gather",
                                       "--src",
                                       src.string(),
                                       "--backend",
                                       "sim",
                                       "--part",
                                       "cpu_fast",
                                       "--no-time",
                                       "--out",
                                       (dir / "r.json").string()};
      if (require) argv.push_back("--require-sandbox");
      fs::remove(dir / "r.json");
      const gpulab::ProcessResult p =
          gpulab::run_process({argv, dir, 300, 1 << 20, 0, 0, {kNoBwrap}});
      INFO(p.output);
      const json report = read_report(dir / "r.json");
      if (require) {
        CHECK(p.exit_code == 1);
        CHECK_FALSE(report.contains("score"));
      } else {
        CHECK(p.exit_code == 0);
        CHECK(p.output.find("WITHOUT the sandbox") != std::string::npos);
        CHECK(report["extra_data"]["gpulab"]["sandbox"]["unsandboxed_allowed"] == true);
        CHECK(test_named(report, "cpu_fast: correctness on the public")["score"] == 10);
      }
    }
  }
}

TEST_SUITE("gpu-sandbox") {
  TEST_CASE("a GPU part runs in the sandbox, with the GPU's device nodes") {
    const Graded g = grade("scatter-gather",
                           kSource / "tests" / "submissions" / "scatter-gather" / "alt-correct",
                           {"--part", "gather", "--no-time"}, 600);
    CHECK(g.process.exit_code == 0);
    CHECK(g.report["extra_data"]["gpulab"]["sandbox"]["enabled"] == true);
    check_full_correctness(g.report, "gather");
  }

  TEST_CASE("a CPU part gets no GPU, a GPU part no device beyond the GPU's") {
    const Graded g = grade("scatter-gather", kAdversarial / "sandbox-devices",
                           {"--part", "cpu_fast", "--part", "gather", "--no-time"}, 600);
    CHECK(g.process.exit_code == 0);
    for (const char* part : {"cpu_fast", "gather"}) {
      const json t = test_named(g.report, std::string(part) + ": correctness on the public");
      CHECK_MESSAGE(contains(t, "gpulab-adversarial: devices as expected"), t.dump(2));
    }
  }
}
