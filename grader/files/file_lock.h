// An exclusive lock on a file (flock), held while the object lives. The kernel drops it when
// its holder dies, even by kill -9, so an interrupted grading never leaves a stale lock behind.
#pragma once

#include <filesystem>

namespace gpulab {

class FileLock {
 public:
  FileLock() = default;
  // Blocks until the lock is held; creates the file and its directory when missing. Throws
  // std::runtime_error when the file cannot be opened.
  explicit FileLock(const std::filesystem::path& file);
  ~FileLock();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_ >= 0; }
  // Whether some other holder has the lock now (it is free again when this returns).
  static bool taken(const std::filesystem::path& file);

 private:
  int fd_ = -1;
};

}  // namespace gpulab
