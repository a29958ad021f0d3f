// grader/sandbox/run_staging.h: a run's mounts are bound from random-named stand-ins in the
// grader's work folder, so that nothing the run can read (its mounts, bwrap's command line) names
// the dataset cache, the expected outputs beside its inputs, other runs or the reference.
#include "sandbox/run_staging.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostile_tree.h"
#include "sandbox/run_libraries.h"
#include "sandbox/sandbox.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using gpulab::RunStaging;
using gpulab::StagedRun;
using test::contains;

bool random_name(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.size() == 32 && n.find_first_not_of("0123456789abcdef") == std::string::npos;
}

ino_t inode(const fs::path& p) {
  struct stat st {};
  REQUIRE(lstat(p.c_str(), &st) == 0);
  return st.st_ino;
}

// A dataset cache (input/ with expected/ beside it), a runner, and the grader's work folder.
struct Grader {
  test::TempDir tmp;
  fs::path dataset = tmp / "cache" / "datasets" / "scan" / "public" / "int-32";
  fs::path input = dataset / "input", runner = tmp / "build" / "runners" / "scan-sim";
  fs::path work = tmp / "work";
  Grader() {
    test::write_file(input / "meta.json", "{\"params\": {}}");
    test::write_file(input / "in.npy", "input bytes");
    test::write_file(dataset / "expected" / "exclusive.npy", "expected bytes");
    test::write_file(runner, "#!/bin/sh\n");
    fs::permissions(runner, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    fs::create_directories(work);
    // The sandbox's user passes through them, as through the grader's own folders.
    fs::permissions(tmp.path(), fs::perms::others_exec, fs::perm_options::add);
    fs::permissions(work, fs::perms::others_exec, fs::perm_options::add);
  }
};

}  // namespace

TEST_CASE("a run's runner, inputs and output folder are staged under random names") {
  Grader g;
  RunStaging staging(g.work);
  const StagedRun run = staging.stage(g.runner, g.input, g.work / "runs" / "exclusive" / "x");
  for (const fs::path& p : {run.runner, run.input, run.scratch}) {
    CHECK(p.parent_path() == g.work);
    CHECK_MESSAGE(random_name(p), p);
  }
  CHECK(run.out.parent_path() == run.scratch);
  CHECK(fs::is_empty(run.out));
  // The same files: hard links on one file system, made once per grading.
  CHECK(inode(run.runner) == inode(g.runner));
  CHECK(inode(run.input / "in.npy") == inode(g.input / "in.npy"));
  CHECK(test::read_file(run.input / "meta.json") == "{\"params\": {}}");
  CHECK_FALSE(fs::exists(run.input.parent_path() / "expected"));
  const StagedRun again = staging.stage(g.runner, g.input, g.work / "runs" / "exclusive" / "y");
  CHECK(again.runner == run.runner);
  CHECK(again.input == run.input);
  CHECK(again.scratch != run.scratch);
}

TEST_CASE("a run's output folder is collected where the grader reads it, its staging removed") {
  Grader g;
  RunStaging staging(g.work);
  const fs::path out_dir = g.work / "timed" / "exclusive" / "student";
  test::write_file(out_dir / "stale.npy", "from an earlier run");
  const StagedRun run = staging.stage(g.runner, g.input, out_dir);
  test::write_file(run.out / "result.json", "{}");
  test::write_file(run.scratch / "out.samples" / "1" / "in.npy", "a timed sample's inputs");
  gpulab::collect_output(run);
  CHECK(test::read_file(out_dir / "result.json") == "{}");
  CHECK_FALSE(fs::exists(out_dir / "stale.npy"));
  CHECK_FALSE(fs::exists(run.scratch));
  // Unstaged (no sandbox): the folder itself, emptied; nothing to collect.
  const StagedRun plain = gpulab::unstaged_run(g.runner, g.input, out_dir);
  CHECK(plain.out == out_dir);
  CHECK(plain.input == g.input);
  CHECK(fs::is_empty(out_dir));
  gpulab::collect_output(plain);
  CHECK(fs::is_directory(out_dir));
}

TEST_CASE("an earlier run's output folder is replaced whatever it left: deep, links") {
  Grader g;
  const fs::path outside = g.tmp / "outside";
  test::write_file(outside / "keep.txt", "the grader's file");
  const fs::path out_dir = g.work / "runs" / "exclusive" / "x";
  // Deeper than the open-file limit while the folder is replaced (remove_tree.h).
  constexpr int kDepth = 100;
  const auto leave_hostile = [&] {
    test::make_chain(out_dir / "deep", kDepth);
    fs::create_directory_symlink(outside, out_dir / "link");
  };
  RunStaging staging(g.work);
  leave_hostile();
  const StagedRun run = staging.stage(g.runner, g.input, out_dir);
  test::write_file(run.out / "result.json", "{}");
  {
    const test::LowOpenFileLimit low(16);
    REQUIRE(low.limit() < static_cast<rlim_t>(kDepth));
    gpulab::collect_output(run);
  }
  CHECK(test::read_file(out_dir / "result.json") == "{}");
  CHECK_FALSE(test::entry_exists(out_dir / "deep"));
  leave_hostile();
  {
    const test::LowOpenFileLimit low(16);
    gpulab::unstaged_run(g.runner, g.input, out_dir);
  }
  CHECK(fs::is_empty(out_dir));
  CHECK(test::read_file(outside / "keep.txt") == "the grader's file");
}

TEST_CASE("across file systems the stand-ins are read-only copies") {
  // /dev/shm is a tmpfs: the work folder (in the system's temp dir) is usually elsewhere.
  if (!fs::is_directory("/dev/shm")) return;
  Grader g;
  const fs::path shm = "/dev/shm/gpulab-unit-staging-" + std::to_string(getpid());
  fs::remove_all(shm);
  test::write_file(shm / "input" / "in.npy", "input bytes");
  test::write_file(shm / "runner", "#!/bin/sh\n");
  fs::permissions(shm / "runner", fs::perms::owner_exec, fs::perm_options::add);
  RunStaging staging(g.work);
  const StagedRun run = staging.stage(shm / "runner", shm / "input", g.work / "out");
  CHECK(test::read_file(run.input / "in.npy") == "input bytes");
  const auto perms = fs::status(run.input / "in.npy").permissions();
  CHECK((perms & fs::perms::others_read) != fs::perms::none);
  CHECK((perms & fs::perms::all & ~fs::perms::owner_write & ~fs::perms::group_write &
         ~fs::perms::others_write) == perms);
  CHECK((fs::status(run.runner).permissions() & fs::perms::others_exec) != fs::perms::none);
  fs::remove_all(shm);
}

TEST_CASE("only regular files are staged: a link would be followed by the bind") {
  Grader g;
  fs::create_symlink(g.dataset / "expected" / "exclusive.npy", g.input / "exclusive.npy");
  RunStaging staging(g.work);
  CHECK_THROWS_WITH_AS(staging.stage(g.runner, g.input, g.work / "out"),
                       doctest::Contains("not a regular file"), std::runtime_error);
}

// The real thing: what a sandboxed run reads about its mounts, before and after staging.
TEST_CASE("a staged run's mounts name no path of the grader's") {
  const gpulab::Paths paths = gpulab::Paths::current();
  gpulab::Sandbox sandbox = gpulab::Sandbox::detect(paths, false);
  REQUIRE_MESSAGE(sandbox.enabled(), "bubblewrap cannot run here: " << sandbox.problem());
  // The shell and its libraries in place of a runner's (run_libraries.h).
  gpulab::RunLibraries shell;
  shell.runner = gpulab::system_files(
      gpulab::library_closure("/bin/bash", gpulab::LibrarySearch::current()).files);
  shell.runner.push_back({fs::canonical("/bin/bash"), "/bin/bash"});
  sandbox.show_runs(shell);
  Grader g;
  gpulab::ProcessOptions po;
  po.timeout_s = 30;
  // Shell builtins only: a run may start no other process.
  po.argv = {"/bin/bash", "-c",
             "while IFS= read -r l; do echo \"$l\"; done </proc/self/mountinfo;"
             "mapfile -d '' args </proc/1/cmdline; echo \"${args[*]}\"; echo /gpulab/input/*"};
  const auto what_it_reads = [&](const StagedRun& run) {
    const gpulab::SandboxSpec spec =
        gpulab::run_sandbox(paths, run.runner, run.input, run.out, false);
    const gpulab::ProcessResult r = sandbox.run(po, spec);
    REQUIRE_MESSAGE(r.ok(), r.describe() << "\n" << r.output);
    return r.output;
  };
  const fs::path out_dir = g.work / "runs" / "exclusive" / "int-32";

  // Unstaged, the mounts' roots and bwrap's arguments name the dataset cache and the run's folder.
  const std::string before = what_it_reads(gpulab::unstaged_run(g.runner, g.input, out_dir));
  CHECK(contains(before, g.input.string()));
  CHECK(contains(before, out_dir.string()));

  sandbox.stage_runs_in(g.work);
  const StagedRun run = sandbox.stage_run(g.runner, g.input, out_dir);
  const std::string after = what_it_reads(run);
  INFO(after);
  CHECK(contains(after, "in.npy"));  // the inputs are there
  // (Not "cache" alone: /etc/ld.so.cache is bound into every sandbox.)
  for (const std::string& named :
       std::vector<std::string>{g.dataset.string(), "cache/datasets", "int-32", "expected",
                                "runners", "scan-sim", "runs", "exclusive"})
    CHECK_MESSAGE(!contains(after, named), named);
  CHECK(contains(after, run.input.filename().string()));  // a random name, nothing more
  gpulab::collect_output(run);
}
