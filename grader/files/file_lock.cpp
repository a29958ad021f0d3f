#include "files/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpulab {

namespace {

// Close-on-exec, so runners started while the lock is held do not inherit it: a lock must end
// with the grader that took it, not with the last of its children.
int open_lock_file(const std::filesystem::path& file) {
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  // A lock file another user created may be read-only to us; flock works on that too.
  if (fd < 0 && errno == EACCES) fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot open the lock file " + file.string() + ": " +
                             std::strerror(errno));
  return fd;
}

}  // namespace

FileLock::FileLock(const std::filesystem::path& file) : fd_(open_lock_file(file)) {
  while (flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int e = errno;
    close(fd_);
    fd_ = -1;
    throw std::runtime_error("cannot lock " + file.string() + ": " + std::strerror(e));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) close(fd_);  // closing the last descriptor releases the lock
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

bool FileLock::taken(const std::filesystem::path& file) {
  const int fd = open_lock_file(file);
  const bool free = flock(fd, LOCK_EX | LOCK_NB) == 0;
  close(fd);
  return !free;
}

}  // namespace gpulab
