// Reading what a run left in its output folder, and only that. The folder is the run's to
// write, so anything in it may be a trap: a symbolic link to a file the grader can read and the
// run cannot (an expected output, the reference's timing record), a hard link to one, a named
// pipe that blocks a reader, a device. The grader reads only regular files with exactly one
// link, directly in the folder, opened without following any link (the folder itself included),
// and checked on the open file itself, so that nothing can be swapped in between the check and
// the read. Anything else in the folder fails the run, with a message for the student that
// names the entry and says why.
#pragma once

#include <filesystem>
#include <istream>
#include <memory>
#include <string>

#include "fd_stream.h"
#include "npy.h"

namespace gpulab {

// One file of a run's output folder, open for reading, or the reason it is not.
class RunFile {
 public:
  RunFile();
  RunFile(RunFile&&) noexcept;
  RunFile& operator=(RunFile&&) noexcept;
  ~RunFile();

  bool is_open() const { return fd_ >= 0; }
  // Why it is not open, for the student ("your run left no 'result.json' in its output folder").
  const std::string& problem() const { return problem_; }
  // Its content; only when open.
  std::istream& stream();

 private:
  friend class RunOutput;
  int fd_ = -1;
  std::string problem_;
  std::unique_ptr<FdStreamBuf> buffer_;
  std::unique_ptr<std::istream> stream_;
};

class RunOutput {
 public:
  // Opens `dir` itself, not through a link.
  explicit RunOutput(const std::filesystem::path& dir);
  ~RunOutput();
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;

  // "" when every entry of the folder is a regular file with one link; else, for the student,
  // the entries that are not (a few, by name) and what each is. Looks at the folder once.
  const std::string& refused() const;

  // The file `name` (a name, not a path: gpulab's own, such as "result.json"), opened as above.
  RunFile open(const std::string& name) const;

  // The .npy file `name` holding `dtype`; an NpyError, naming the file and saying what is wrong
  // with it, when it is refused, missing or unreadable as such.
  NpyArray read_npy(const std::string& name, DType dtype) const;

 private:
  int dir_fd_ = -1;
  std::string unopened_;  // why the folder could not be opened, for the student
  mutable bool looked_ = false;
  mutable std::string refused_;
};

}  // namespace gpulab
