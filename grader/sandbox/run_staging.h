// The host folders behind a sandboxed run's mounts, under names that say nothing. A run can read
// where its mounts come from (the roots in /proc/self/mountinfo, bwrap's command line in
// /proc/1/cmdline): bound from where the grader keeps them, they would tell it the path of the
// dataset cache (the expected outputs lie beside each dataset's inputs), of the reference's
// runner, or of the folder of the reference's timed run beside its own. Staged here, each is
// <dir>/<32 random hex digits>: the runner and the dataset's input folder as hard links (copies
// across file systems), made once per grading, and for each run a fresh folder holding its
// output folder (and whatever else the grader puts beside it for that run), moved to where the
// grader reads it once the run has ended.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>

namespace gpulab {

// The host paths one run is given.
struct StagedRun {
  std::filesystem::path runner, input;  // read-only to the run
  std::filesystem::path out;            // the run's output folder, empty
  // Where collect_output() moves `out` for the grader to read; `out` itself when not staged.
  std::filesystem::path out_dir;
  std::filesystem::path scratch;  // the run's own staging folder, removed afterwards ("": none)
};

class RunStaging {
 public:
  // Stages in `dir`, which the grader owns and others may only pass through.
  explicit RunStaging(std::filesystem::path dir);

  // The staged runner and input folder (the same for every run of this grading), and a fresh
  // output folder. Throws std::runtime_error where they cannot be staged (not a regular file,
  // a full disk).
  StagedRun stage(const std::filesystem::path& runner, const std::filesystem::path& input,
                  const std::filesystem::path& out_dir);

  // The stand-in of a file or a folder (its files, one level), made once per grading: a timed
  // run's sample datasets, linked from here into the run's samples folder when it asks.
  const std::filesystem::path& staged(const std::filesystem::path& original);

 private:
  std::filesystem::path dir_;
  std::mutex mutex_;  // runs are staged from several threads (sanitizer_runs.h's tools)
  std::map<std::filesystem::path, std::filesystem::path> staged_;  // original -> its stand-in
};

// A run given the paths as they are (no sandbox: it can read everything anyway), `out_dir`
// emptied of whatever an earlier run left (remove_tree.h; throws where it cannot be).
StagedRun unstaged_run(const std::filesystem::path& runner, const std::filesystem::path& input,
                       const std::filesystem::path& out_dir);

// Once the run has ended: moves its output folder to run.out_dir (replacing what was there, as
// unstaged_run empties it) and removes the rest of its staging.
void collect_output(const StagedRun& run);

}  // namespace gpulab
