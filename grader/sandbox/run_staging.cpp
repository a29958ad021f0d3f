#include "sandbox/run_staging.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "files/random_bytes.h"
#include "files/remove_tree.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// A name in `dir` nobody can guess: 128 random bits.
fs::path fresh_name(const fs::path& dir) {
  return dir / random_hex(16);
}

// A folder the sandbox's user may pass through and, with `listable`, read.
void make_folder(const fs::path& dir, bool listable) {
  fs::create_directory(dir);
  using P = fs::perms;
  fs::permissions(dir, P::owner_all | P::group_exec | P::others_exec |
                           (listable ? P::group_read | P::others_read : P::none));
}

// `to` as the same file as `from` (a hard link), or a copy of it, readable (and, where `from`
// is, executable) by all and writable by none.
void stand_in(const fs::path& from, const fs::path& to) {
  struct stat st {};
  if (lstat(from.c_str(), &st) != 0)
    throw std::runtime_error("cannot stage " + from.string() +
                             " for a run: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))  // a link would be followed by the bind, and by a copy
    throw std::runtime_error("cannot stage " + from.string() +
                             " for a run: it is not a regular file");
  if (link(from.c_str(), to.c_str()) == 0) return;  // its own permissions, as the grader made it
  fs::copy_file(from, to);  // another file system (the cache on a disk, the work folder in /tmp)
  using P = fs::perms;
  const bool exec = (st.st_mode & S_IXUSR) != 0;
  fs::permissions(to, P::owner_read | P::group_read | P::others_read |
                          (exec ? P::owner_exec | P::group_exec | P::others_exec : P::none));
}

}  // namespace

RunStaging::RunStaging(fs::path dir) : dir_(std::move(dir)) {}

const fs::path& RunStaging::staged(const fs::path& original) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto it = staged_.find(original); it != staged_.end()) return it->second;
  const fs::path to = fresh_name(dir_);
  if (fs::is_directory(original)) {  // a dataset's input folder: its files, one level
    make_folder(to, true);
    for (const auto& e : fs::directory_iterator(original))
      stand_in(e.path(), to / e.path().filename());
  } else {
    stand_in(original, to);
  }
  return staged_[original] = to;
}

StagedRun RunStaging::stage(const fs::path& runner, const fs::path& input,
                            const fs::path& out_dir) {
  StagedRun run;
  run.runner = staged(runner);
  run.input = staged(input);
  run.scratch = fresh_name(dir_);
  make_folder(run.scratch, false);
  run.out = run.scratch / "out";
  fs::create_directory(run.out);
  run.out_dir = out_dir;
  return run;
}

StagedRun unstaged_run(const fs::path& runner, const fs::path& input, const fs::path& out_dir) {
  remove_tree_or_throw(out_dir);  // an earlier run's, which may hold anything (remove_tree.h)
  fs::create_directories(out_dir);
  return {runner, input, out_dir, out_dir, {}};
}

void collect_output(const StagedRun& run) {
  if (run.scratch.empty()) return;
  remove_tree_or_throw(run.out_dir);  // an earlier run's, which may hold anything (remove_tree.h)
  fs::create_directories(run.out_dir.parent_path());
  fs::rename(run.out, run.out_dir);  // both in the grader's work folder: one file system
  remove_tree(run.scratch);
}

}  // namespace gpulab
