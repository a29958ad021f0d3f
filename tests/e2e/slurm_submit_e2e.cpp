// End-to-end, without a cluster (suite cpu): `gpulab grade-all --slurm` against a stand-in
// sbatch and squeue on the PATH that record what they are given. The command lines and files
// of a submission (the seed in none of them, nor in sbatch's environment; the seed file 0600,
// the cache 0700), and the refusal while squeue still lists the last submission. Nothing is
// graded here: the real cluster's test (label slurm) runs the tasks.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "e2e_util.h"

namespace {

using namespace e2e;

const std::string kSeed = "a-seed-no-process-may-show-0123";

// A stand-in `name` in `bin`: appends its arguments, and whether it saw the seed in its
// environment, to `log`, then runs `answer`.
void fake(const fs::path& bin, const std::string& name, const fs::path& log,
          const std::string& answer) {
  fs::create_directories(bin);
  std::ofstream(bin / name) << "#!/bin/sh\n"
                            << "echo \"" << name << " $*\" >> '" << log.string() << "'\n"
                            << "env | grep -q GPULAB_HIDDEN_SEED && echo SEED-IN-ENV >> '"
                            << log.string() << "'\n"
                            << answer << "\n";
  fs::permissions(bin / name, fs::perms::owner_all);
}

unsigned mode_of(const fs::path& file) {
  struct stat st {};
  REQUIRE(stat(file.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("grade-all --slurm submits an array and a merge job, the seed in neither") {
    const fs::path dir = scratch("slurm-submit");
    const fs::path roster = dir / "roster", out = dir / "out", bin = dir / "bin",
                   log = dir / "calls.log", queued = dir / "queued";
    fs::create_directories(roster);
    for (const char* student : {"alice", "bob", "carol"})
      fs::copy(kSource / "tests/submissions/scatter-gather/alt-correct", roster / student,
               fs::copy_options::recursive);
    // sbatch answers 41 for the array and 42 for the merge; squeue lists what `queued` holds.
    fake(bin, "sbatch", log, "case \"$*\" in *afterany*) echo '42;cluster';; *) echo 41;; esac");
    fake(bin, "squeue", log, "cat '" + queued.string() + "' 2>/dev/null; exit 0");
    const std::vector<std::string> argv = {GPULAB_TEST_BINARY,
                                           "grade-all",
                                           "--roster",
                                           roster.string(),
                                           "--labs",
                                           "scatter-gather",
                                           "--out",
                                           out.string(),
                                           "--backend",
                                           "sim",
                                           "--slurm",
                                           "--per-task",
                                           "2",
                                           "--max-parallel",
                                           "1",
                                           "--gres",
                                           "gpu:1",
                                           "--sbatch-arg=--account=gpucourse"};
    const std::vector<std::string> env = {"PATH=" + bin.string() + ":" + std::getenv("PATH"),
                                          "GPULAB_HIDDEN_SEED=" + kSeed};
    const auto submitted = run_command(argv, dir, env, 60);
    INFO(submitted.output);
    REQUIRE(submitted.exit_code == 0);
    CHECK(said(submitted, "submitted job array 41"));
    CHECK(said(submitted, "merge job 42"));
    CHECK(said(submitted, "grade-all --status --out " + out.string()));

    const std::string calls = read_text(log);
    INFO(calls);
    CHECK(calls.find("--array=0-1%1") != std::string::npos);  // 3 student-labs, 2 a task
    CHECK(calls.find("--gres=gpu:1") != std::string::npos);
    CHECK(calls.find("--dependency=afterany:41") != std::string::npos);
    CHECK(calls.find("--account=gpucourse") != std::string::npos);
    CHECK(calls.find("--export=") != std::string::npos);
    CHECK(calls.find(kSeed) == std::string::npos);
    CHECK(calls.find("SEED-IN-ENV") == std::string::npos);
    for (const char* script : {"task.sh", "merge.sh"})
      CHECK(read_text(out / "slurm" / script).find(kSeed) == std::string::npos);
    CHECK(read_text(out / "slurm" / "plan.json").find(kSeed) == std::string::npos);
    CHECK(read_text(out / "slurm" / "hidden-seed") == kSeed);
    CHECK(mode_of(out / "slurm" / "hidden-seed") == 0600);
    CHECK(mode_of(out / "cache") == 0700);

    // While squeue lists the merge job, a rerun refuses and names it and scancel.
    std::ofstream(queued) << "42\n";
    const auto refused = run_command(argv, dir, env, 60);
    CHECK(refused.exit_code == 1);
    CHECK(said(refused, "still queued or running (job 42)"));
    CHECK(said(refused, "scancel 42"));
    // Once it is gone, the same command submits again.
    fs::remove(queued);
    CHECK(run_command(argv, dir, env, 60).exit_code == 0);
    fs::remove_all(dir);
  }
}
