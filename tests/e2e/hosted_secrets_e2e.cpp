// End-to-end: the hidden seed on the course platforms, where bubblewrap cannot run and gpulab
// grades unsandboxed (docs/GRADING.md, "Where bubblewrap cannot run"). The probe
// tests/adversarial/scan/hosted-secrets-probe is graded on each platform's layout, made in a
// scratch folder, with bubblewrap made unusable as in the platforms' containers: Gradescope's
// (the package unzipped into <root>/source, its run_autograder run as root), PrairieLearn's (the
// question's tests/ in <root>/tests, the image's entrypoint run as root), an instructor's own
// machine (gpulab grade --hidden-seed as root), each of which must keep the seed from the probe,
// which must run as a user that is not root; and GitHub Classroom's (gpulab run as the runner's
// user, not root), where the student owns everything and no seed must ever be: a secret given
// there is read by the probe, as the test shows. Each probe's output is printed (the note's).
// Tests that need root (the hosted case) say so and pass where the test is not root.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "e2e_util.h"
#include "os/process.h"

namespace {

using namespace e2e;

const fs::path kProbe = kSource / "tests" / "adversarial" / "scan" / "hosted-secrets-probe";
const std::string kNoBwrap = "GPULAB_BWRAP=/nonexistent/bwrap";
constexpr const char* kUidLine = "hosted-secrets-probe: uid ";

std::string fresh_seed(const std::string& platform) {
  std::random_device rd;
  return platform + "-probe-seed-" + std::to_string(rd()) + std::to_string(rd());
}

// Every string of a report, one a line, as the student reads them (markdown escapes dropped).
std::string all_text(const json& j) {
  if (j.is_string()) return plain_text(j.get<std::string>()) + "\n";
  std::string text;
  if (j.is_structured())
    for (const auto& v : j) text += all_text(v);
  return text;
}

// The uid the probe printed; -1 where it printed none.
long probe_uid(const std::string& text) {
  const size_t at = text.find(kUidLine);
  return at == std::string::npos ? -1 : std::atol(text.c_str() + at + std::string(kUidLine).size());
}

// The probe's lines in one dataset's failure, for the note.
std::string probe_lines(const std::string& text) {
  const size_t end = text.find("hosted-secrets-probe: done");
  if (end == std::string::npos) return "(no probe output)";
  size_t start = text.rfind("Its output:", end);
  start = start == std::string::npos ? 0 : start;
  return text.substr(start, text.find('\n', end) - start);
}

// What a platform's grading must show: the probe ran, as a user that is not root; of what it
// tried, `refused` (the seed's files, the cache, the report's folder) was refused; it read no
// process's environment, listed no dataset cache, found no expected output, wrote nothing beside
// the report; and nothing the student or gpulab's log shows holds the seed.
void check_kept(const std::string& platform, const fs::path& results, const std::string& log,
                const std::string& seed, const std::vector<std::string>& refused) {
  const json report = read_report(results);
  const std::string text = all_text(report);
  MESSAGE(platform << ": the probe's output\n" << probe_lines(text));
  REQUIRE_MESSAGE(text.find("hosted-secrets-probe: done") != std::string::npos, text);
  CHECK(probe_uid(text) > 0);
  CHECK(text.find(kUidLine + std::string("0 ")) == std::string::npos);
  for (const auto& line : refused) CHECK_MESSAGE(text.find(line) != std::string::npos, line);
  // The platform's scripts are read (they hold no secret); no process's environment, no cache.
  CHECK(text.find("environment READ") == std::string::npos);
  CHECK(text.find("LISTED") == std::string::npos);
  CHECK(text.find("THERE") == std::string::npos);
  CHECK(text.find("WRITTEN") == std::string::npos);
  CHECK(read_text(results).find(seed) == std::string::npos);
  CHECK(text.find(seed) == std::string::npos);
  CHECK(log.find(seed) == std::string::npos);
}

}  // namespace

TEST_SUITE("sandbox") {
  TEST_CASE("Gradescope's layout, unsandboxed as root: the probe reads no seed and is not root") {
    if (geteuid() != 0) return;  // Gradescope runs run_autograder as root: the case to test
    const fs::path dir = scratch("hosted-gradescope");
    const std::string seed = fresh_seed("gradescope");
    const auto made = run_command({GPULAB_TEST_BINARY, "package", "gradescope", "scan", "--out",
                                   (dir / "autograder.zip").string(), "--hidden-seed", seed},
                                  dir);
    REQUIRE_MESSAGE(made.exit_code == 0, made.output);
    const fs::path root = dir / "autograder";
    const auto unzip = unpack_gradescope(dir / "autograder.zip", root);
    REQUIRE_MESSAGE(unzip.exit_code == 0, unzip.output);
    // setup.sh would build gpulab here (minutes; e2e_gradescope runs it): this build's stands in.
    fs::create_directories(root / "source" / "gpulab" / "build");
    fs::create_symlink(GPULAB_TEST_BINARY, root / "source" / "gpulab" / "build" / "gpulab");
    fs::copy_file(root / "source" / "run_autograder", root / "run_autograder");
    fs::copy_file(kProbe / "scan.cu", root / "submission" / "scan.cu");
    // The seed is in its own file, no script: the copy Gradescope makes of run_autograder, with
    // whatever mode, holds none.
    CHECK(read_text(root / "source" / "hidden-seed") == seed);
    CHECK(read_text(root / "run_autograder").find(seed) == std::string::npos);

    const auto r =
        run_command({(root / "run_autograder").string()}, root,
                    {"GPULAB_AUTOGRADER_ROOT=" + root.string(), kNoBwrap,
                     // Where the built gpulab keeps it there: beside it.
                     "GPULAB_CACHE_DIR=" + (root / "source/gpulab/build/cache").string()});
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK((fs::status(root / "source" / "hidden-seed").permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write));
    const json report = read_report(root / "results" / "results.json");
    CHECK(report["extra_data"]["gpulab"]["sandbox"]["enabled"] == false);
    CHECK(report["extra_data"]["gpulab"]["sandbox"]["own_user"] == true);
    check_kept(
        "Gradescope", root / "results" / "results.json", r.output, seed,
        {(root / "source" / "hidden-seed").string() + ": not readable (Permission denied)",
         "report folder " + (root / "results").string() + ": not writable (Permission denied)",
         "dataset cache " + (root / "source/gpulab/build/cache/datasets").string() +
             ": not readable (Permission denied)",
         "expected outputs beside the input: No such file or directory",
         "environment not readable (Permission denied)"});
  }

  TEST_CASE("PrairieLearn's layout, unsandboxed as root: the probe reads no seed and is not root") {
    if (geteuid() != 0) return;  // PrairieLearn runs the entrypoint as root in its container
    const fs::path dir = scratch("hosted-prairielearn");
    const std::string seed = fresh_seed("prairielearn");
    const auto made =
        run_command({GPULAB_TEST_BINARY, "package", "prairielearn", "scan", "--hidden-seed", seed,
                     "--image-account", "probe", "--out", (dir / "package").string()},
                    dir);
    REQUIRE_MESSAGE(made.exit_code == 0, made.output);
    const fs::path root = dir / "grade";
    fs::create_directories(root / "student");
    fs::create_directories(root / "data");
    fs::copy(dir / "package" / "question" / "tests", root / "tests", fs::copy_options::recursive);
    std::ofstream(root / "data" / "data.json") << R"({"params": {}, "submitted_answers": {}})";
    fs::copy_file(kProbe / "scan.cu", root / "student" / "scan.cu");
    // The image's gpulab, built in /opt/gpulab/build with its dataset cache beside it: this
    // build's stands in.
    const fs::path image_build = dir / "opt" / "gpulab" / "build";
    fs::create_directories(image_build);
    fs::create_symlink(GPULAB_TEST_BINARY, image_build / "gpulab");
    const auto r = run_command({(dir / "package" / "image" / "entrypoint").string()}, root,
                               {"GPULAB_PRAIRIELEARN_ROOT=" + root.string(),
                                "GPULAB_PRAIRIELEARN_GPULAB=" + (image_build / "gpulab").string(),
                                kNoBwrap, "GPULAB_CACHE_DIR=" + (image_build / "cache").string()});
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK((fs::status(root / "tests").permissions() & fs::perms::all) == fs::perms::owner_all);
    check_kept(
        "PrairieLearn", root / "results" / "results.json", r.output, seed,
        {(root / "tests" / "hidden-seed").string() + ": not readable (Permission denied)",
         "report folder " + (root / "results").string() + ": not writable (Permission denied)",
         "dataset cache " + (image_build / "cache/datasets").string() +
             ": not readable (Permission denied)",
         "environment not readable (Permission denied)"});
  }

  TEST_CASE("by hand as root, unsandboxed: --hidden-seed is off gpulab's command line") {
    if (geteuid() != 0) return;  // a grader that is not root runs the code as itself (open)
    const fs::path dir = scratch("hosted-by-hand");
    const std::string seed = fresh_seed("by-hand");
    // An instructor's build: gpulab and its dataset cache beside it (build/cache).
    fs::create_directories(dir / "build");
    fs::create_symlink(GPULAB_TEST_BINARY, dir / "build" / "gpulab");
    const auto r =
        run_command({(dir / "build" / "gpulab").string(), "grade", "scan", "--submission",
                     kProbe.string(), "--backend", "sim", "--hidden-seed", seed,
                     "--allow-unsandboxed", "--out", (dir / "results.json").string()},
                    dir, {kNoBwrap, "GPULAB_CACHE_DIR=" + (dir / "build/cache").string()});
    INFO(r.output);
    CHECK(r.exit_code == 0);
    check_kept("by hand", dir / "results.json", r.output, seed,
               {"--hidden-seed " + std::string(seed.size(), '*'),
                "dataset cache " + (dir / "build/cache/datasets").string() +
                    ": not readable (Permission denied)",
                "environment not readable (Permission denied)"});
  }

  TEST_CASE("a hidden seed's file other users can read is refused when grading unsandboxed") {
    if (geteuid() != 0) return;
    const fs::path dir = scratch("hosted-open-seed");
    std::ofstream(dir / "hidden-seed") << "an-open-hidden-seed-file\n";
    fs::permissions(dir / "hidden-seed", fs::perms::others_read, fs::perm_options::add);
    const auto r =
        run_command({GPULAB_TEST_BINARY, "grade", "scan", "--submission", kProbe.string(),
                     "--backend", "sim", "--hidden-seed-file", (dir / "hidden-seed").string(),
                     "--allow-unsandboxed", "--out", (dir / "results.json").string()},
                    dir, {kNoBwrap, "GPULAB_CACHE_DIR=" + (dir / "cache").string()});
    CHECK(r.exit_code == 1);
    const json report = read_report(dir / "results.json");
    CHECK_FALSE(report.contains("score"));
    const std::string error = report["extra_data"]["grader_error"];
    CHECK_MESSAGE(error.find("hidden-seed is readable by other users") != std::string::npos, error);
    CHECK(error.find("chmod 600") != std::string::npos);
    CHECK(all_text(report).find("hosted-secrets-probe") == std::string::npos);  // never ran
  }

  TEST_CASE("GitHub Classroom's layout: the probe runs as the runner's user, and no secret holds") {
    // The workflow the kit ships gives gpulab no secret (the student's repository holds the
    // workflow; GRADING.md, "GitHub Classroom").
    for (const char* file : {"classroom.yml", "lab-step.yml"}) {
      const std::string yml = read_text(kSource / "packaging" / "github-classroom" / file);
      REQUIRE(!yml.empty());
      CHECK(yml.find("secrets.") == std::string::npos);
      CHECK(yml.find("HIDDEN_SEED") == std::string::npos);
    }
    if (geteuid() != 0) return;  // the runner's user is made below from root
    // The runner's user: not root, owning the repository's checkout.
    const uid_t runner = 0x6ffff000 + static_cast<uid_t>(getpid() % 4096);
    const fs::path dir = scratch("hosted-classroom");
    fs::permissions(dir, fs::perms::others_exec, fs::perm_options::add);
    fs::create_directories(dir / "repo");
    fs::copy_file(kProbe / "scan.cu", dir / "repo" / "scan.cu");
    for (const auto& e : fs::recursive_directory_iterator(dir))
      REQUIRE(lchown(e.path().c_str(), runner, runner) == 0);
    REQUIRE(chown(dir.c_str(), runner, runner) == 0);
    // Were a secret given to the workflow (a repository secret in its environment), the student's
    // code, running as the same user as gpulab, reads it from gpulab's environment.
    const std::string seed = fresh_seed("classroom");
    gpulab::ProcessOptions po;
    po.argv = {GPULAB_TEST_BINARY,
               "run",
               "scan",
               "--src",
               (dir / "repo").string(),
               "--backend",
               "sim",
               "--no-time",
               "--format",
               "github-classroom",
               "--out",
               (dir / "classroom-scan.json").string()};
    po.cwd = dir;
    po.timeout_s = 600;
    po.output_limit = 1 << 20;
    po.run_as = std::make_pair(runner, static_cast<gid_t>(runner));
    po.env = {kNoBwrap, "HOME=" + dir.string(), "GPULAB_CACHE_DIR=" + (dir / "cache").string(),
              "GPULAB_HIDDEN_SEED=" + seed};
    const gpulab::ProcessResult r = gpulab::run_process(po);
    INFO(r.output);
    const json report = read_report(dir / "classroom-scan.json");
    const std::string text = all_text(report);
    MESSAGE("GitHub Classroom: the probe's output\n" << probe_lines(text));
    CHECK(probe_uid(text) == static_cast<long>(runner));
    CHECK(text.find("process ") != std::string::npos);
    CHECK_MESSAGE(text.find("environment: GPULAB_HIDDEN_SEED=" + seed) != std::string::npos,
                  "the same user reads gpulab's environment: nothing there is secret");
  }
}
