// The sandbox every build and run of student code goes through (bubblewrap): a child sees a
// read-only system (a run: only the libraries its runner loads), the few files its job needs,
// one writable directory, and the GPU's device nodes or no device at all; it has no network, its
// own process and IPC namespaces, a private /tmp, and a process count limit. This file is the
// policy (what a child may see, as a bwrap command line, and who it runs as); process.h is the
// mechanism that starts it.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/process.h"
#include "sandbox/run_libraries.h"
#include "sandbox/run_staging.h"
#include "sandbox/runner_recipe.h"

namespace gpulab {

// One file or directory a child sees: `host` appears at `inside`, read-only unless writable.
// An optional mount whose host path is missing is left out rather than failing the sandbox.
struct SandboxMount {
  std::filesystem::path host, inside;
  bool writable = false;
  bool optional = false;
};

// What of the system a child sees, read-only.
enum class SystemView {
  whole,      // /usr, the top-level /bin, /lib, ...: builds (compilers need the system)
  libraries,  // only the files its runner loads (run_libraries.h): runs
};

// What one sandboxed child may see beside the read-only system.
struct SandboxSpec {
  std::vector<SandboxMount> mounts;
  SystemView system = SystemView::whole;
  bool gpu = false;               // the NVIDIA device nodes (and /sys, read-only, for the driver)
  std::filesystem::path cwd;      // inside the sandbox
  size_t tmp_bytes = 256u << 20;  // the private /tmp, in memory
  // No process may start another (seccomp_filter.h): runs of student code, not builds.
  bool no_new_processes = false;
  // Host directories hidden even where a system directory holds them: gpulab's own trees and
  // its dataset cache, with reference/ and the expected outputs, should an instructor install
  // gpulab under /usr.
  std::vector<std::filesystem::path> hidden;
};

// The facts about this machine that the bwrap command line depends on.
struct SandboxHost {
  std::vector<std::filesystem::path> nvidia_devices;  // /dev/nvidia0, /dev/nvidiactl, ...
  // The top-level /bin, /lib, ...: symlinks (into /usr on a merged-/usr system) or directories.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> root_links;
  std::vector<std::filesystem::path> root_dirs;
  // Directories the loader searches beyond the system's (LD_LIBRARY_PATH: the CUDA driver's
  // libraries in a container, say) and the CUDA toolkit where it is not under /usr.
  std::vector<std::filesystem::path> extra_system_dirs;
  // What a run sees in place of all that (SystemView::libraries): the grading's runner's.
  RunLibraries run_libraries;

  static SandboxHost current(const Paths& paths);
};

// The bwrap options (everything before the command) that confine a child to `spec`.
std::vector<std::string> bwrap_options(const SandboxSpec& spec, const SandboxHost& host);

// A build by `recipe`: the staged student files (or reference/), the recipe's include folders
// (the lab's public folder with its interface header), the archives it links and, for the CPU
// backend, gpulab-sim-cc's pieces, all at their own paths (compiler messages name them);
// `work_dir` is the one writable directory.
SandboxSpec build_sandbox(const RunnerRecipe& recipe, const Paths& paths,
                          const std::filesystem::path& src_dir,
                          const std::filesystem::path& work_dir);

// Where a run's files appear inside its sandbox: fixed paths, so nothing beside the dataset's
// input directory (its expected outputs live next to it) can be reached through them.
struct RunPaths {
  static constexpr const char* runner = "/gpulab/runner";
  static constexpr const char* input = "/gpulab/input";
  static constexpr const char* out = "/gpulab/out";
  // A graded timed run's samples (harness/sample_protocol.h): each appears here when asked for.
  static constexpr const char* samples = "/gpulab/samples";
};

// A run: the runner (read-only), the dataset's input directory (read-only), the run's output
// directory (writable), the GPU's device nodes when `gpu`; of the system only the libraries the
// runner loads (SystemView::libraries; the driver's too when `gpu`).
SandboxSpec run_sandbox(const Paths& paths, const std::filesystem::path& runner,
                        const std::filesystem::path& input_dir,
                        const std::filesystem::path& out_dir, bool gpu);

// Whether children are sandboxed here, and how: found once per process by running bubblewrap.
class Sandbox {
 public:
  // Runs `bwrap ... true` once (per process and per `gpu`) with the mounts a build and a run
  // need; bubblewrap is GPULAB_BWRAP, else bwrap on PATH. Never throws.
  static Sandbox detect(const Paths& paths, bool gpu);

  bool enabled() const { return enabled_; }
  const std::string& problem() const { return problem_; }  // why not enabled, for instructors
  const std::string& version() const { return version_; }  // "bubblewrap 0.8.0"

  // Where `host` appears to a child confined by `spec`: the mount's inside path, or `host`
  // itself when the sandbox is off.
  std::filesystem::path inside(const SandboxSpec& spec, const std::filesystem::path& host) const;

  // From now on, runs are staged in `dir` (the grader's work folder) under random names
  // (run_staging.h), so that nothing a run can read names a path of the grader's.
  void stage_runs_in(const std::filesystem::path& dir);
  // From now on, a run (SystemView::libraries) sees these of the system (run_libraries.h): read
  // once per grading. A run confined before this is refused (std::logic_error).
  void show_runs(RunLibraries libraries);
  // The host paths a run of `runner` on `input` is given, its output collected to `out_dir`
  // (collect_output): staged where stage_runs_in() was called and the sandbox is on, else as
  // they are.
  // A dataset folder's stand-in where runs are staged (RunStaging::staged), else the folder.
  std::filesystem::path stage_input(const std::filesystem::path& input) const;
  StagedRun stage_run(const std::filesystem::path& runner, const std::filesystem::path& input,
                      const std::filesystem::path& out_dir) const;

  // Where the sandbox is off and the grader is root: from now on each child runs as a user of
  // its own (sandbox_uid()), as it would in the sandbox, and runs are staged as they would be
  // (stage_runs_in()), so that student code reads nothing only the grader's user may: the hidden
  // seed's file, the dataset cache's expected outputs, the grader's memory and environment. A
  // grading that holds secrets calls it (gpulab grade); gpulab run does not: a student's own
  // machine holds none, and their files may lie where no other user may go (/root). Returns
  // whether children now run so (false where the sandbox is on, or the grader is not root).
  bool run_unsandboxed_as_own_users();
  // Whether each child runs as a user of its own: in the sandbox where the grader is root, or
  // outside it after run_unsandboxed_as_own_users().
  bool own_users() const;

  // `po` started inside the sandbox: bwrap prefixed to its command, a clean environment (the
  // whitelist below, plus po.env), an unprivileged user whose process count is limited, the
  // writable mounts handed to that user. When the sandbox is off, what needs no namespace: the
  // same environment, no new privileges, the seccomp filter where the spec asks for it (loaded
  // by run_process), the process limit, and after run_unsandboxed_as_own_users() the same user;
  // the mounts' host paths are the child's own (inside() gives them back).
  ProcessOptions confine(ProcessOptions po, const SandboxSpec& spec) const;

  // Runs `po` confined (above) and reports it as if it had run alone: bwrap exits with 128 + n
  // when the child was killed by signal n, which is given back as that signal.
  ProcessResult run(const ProcessOptions& po, const SandboxSpec& spec) const;

  // For the report's environment: {"enabled", "bwrap", "problem"}.
  nlohmann::json to_json() const;

 private:
  bool enabled_ = false;
  bool unsandboxed_own_users_ = false;  // run_unsandboxed_as_own_users()
  std::string bwrap_, version_, problem_;
  Paths paths_;
  std::shared_ptr<RunStaging> staging_;                // stage_runs_in()
  std::shared_ptr<const RunLibraries> run_libraries_;  // show_runs()
};

// Processes and threads one sandboxed child may have at once (RLIMIT_NPROC): enough for nvcc's
// pipeline, the CUDA runtime's threads and the CPU backend's workers; a fork bomb stops there.
constexpr size_t kSandboxProcesses = 256;

// The grader's environment variables a sandboxed child keeps (PATH, the locale, the GPU
// selection, the loader's path, the CPU backend's settings); nothing else of it, such as a
// hidden seed, reaches student code.
bool sandbox_keeps_env(const std::string& name);

// Why a user of a child's own (not the owner, in none of its groups) can read `file`, or ""
// where it cannot: every folder above it is searchable by others and the file readable by them.
std::string readable_by_other_users(const std::filesystem::path& file);

// The user a sandboxed child runs as when the grader is root: RLIMIT_NPROC never binds root,
// so each child gets a uid of its own, unused by anyone, drawn at random (getrandom) from the
// 2^28 uids of a range gpulab reserves: no child can tell which uid another has, and concurrent
// children almost never share one (two of a hundred at once: about 1 in 50,000).
uid_t sandbox_uid();

}  // namespace gpulab
