// Files and folders gpulab makes beside their place and renames into it when whole (a dataset,
// a report): should gpulab stop before the rename (Ctrl-C, a course platform's SIGTERM, an
// exception), none is left behind. A Temporary registers its path while it lives; the stop
// thread (stop_signals.h) removes every registered one before the process exits, and one that
// goes out of scope unreleased removes itself.
#pragma once

#include <filesystem>

namespace gpulab {

class Temporary {
 public:
  // Registers `path` (not made here: the caller makes it).
  explicit Temporary(std::filesystem::path path);
  // Removes the path, unless released, and forgets it.
  ~Temporary();
  Temporary(const Temporary&) = delete;
  Temporary& operator=(const Temporary&) = delete;

  // Renames the temporary to `to` (replacing a file there; a folder must not be there) and
  // forgets it: it is no temporary any more.
  void rename_to(const std::filesystem::path& to);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  bool released_ = false;
};

// Removes every registered temporary, a folder with what is in it. Safe while another thread
// still writes into one (it retries until the folder is gone). Never throws; returns how many
// were removed.
int remove_temporaries();

}  // namespace gpulab
