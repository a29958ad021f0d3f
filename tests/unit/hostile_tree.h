// Hostile trees for the tree remover's tests (grader/files/remove_tree.h), made as a run could
// leave them: with the *at calls from descriptors, so that a tree deeper than PATH_MAX is made
// without ever naming its path; every kind of entry; names of any bytes; and, where the test runs
// as root (which enters any folder whatever its permissions), a user without privileges to make and
// remove a tree whose folders are closed to their owner.
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace test {

// Where to make trees of tens of thousands of entries: in memory (/dev/shm) where there is such
// a place, so that making and removing them takes a second rather than a disk's many.
inline std::filesystem::path memory_temp_dir() {
  return access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : std::filesystem::temp_directory_path();
}

// A folder's descriptor, closed when it goes.
class FolderFd {
 public:
  explicit FolderFd(int fd) : fd_(fd) {
    if (fd_ < 0) throw std::runtime_error("cannot open a folder of the hostile tree");
  }
  explicit FolderFd(const std::filesystem::path& path)
      : FolderFd(open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  FolderFd(FolderFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FolderFd& operator=(FolderFd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~FolderFd() {
    if (fd_ >= 0) close(fd_);
  }
  FolderFd(const FolderFd&) = delete;
  FolderFd& operator=(const FolderFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// The folder `name` made in `parent`, opened.
inline FolderFd make_folder_at(int parent, const std::string& name) {
  if (mkdirat(parent, name.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot make the folder " + name);
  return FolderFd(openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

inline void make_file_at(int dir, const std::string& name, const std::string& bytes) {
  const int fd =
      openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot make the file " + name);
  const bool whole = write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  close(fd);
  if (!whole) throw std::runtime_error("cannot write the file " + name);
}

// A node that is no file or folder: a FIFO, or a socket (S_IFSOCK: as bind leaves one; mknod
// makes one without the path length bind allows).
inline void make_node_at(int dir, const std::string& name, mode_t type) {
  if (mknodat(dir, name.c_str(), type | 0600, 0) != 0)
    throw std::runtime_error("cannot make the node " + name);
}

// A chain of `depth` folders named "d" under `top` (made here), with `files_per_level` files
// in each and "bottom" in the deepest.
inline void make_chain(const std::filesystem::path& top, int depth, int files_per_level = 0) {
  std::filesystem::create_directories(top);
  FolderFd folder(top);
  for (int level = 0; level < depth; ++level) {
    for (int f = 0; f < files_per_level; ++f)
      make_file_at(folder.get(), "f" + std::to_string(f), "level " + std::to_string(level));
    folder = make_folder_at(folder.get(), "d");
  }
  make_file_at(folder.get(), "bottom", "the deepest file");
}

// The open-file limit (RLIMIT_NOFILE) `spare` above the count of descriptors open now while it
// lives: a new descriptor takes the lowest number free, so about `spare` more can be opened
// (those open now numbered above the limit stay open, and free as many numbers below it). A
// tree deeper than that cannot be removed by a walk that holds a descriptor per level.
class LowOpenFileLimit {
 public:
  explicit LowOpenFileLimit(int spare) {
    int open_now = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd"))
      ++open_now;
    if (getrlimit(RLIMIT_NOFILE, &before_) != 0) throw std::runtime_error("no RLIMIT_NOFILE");
    rlimit low = before_;
    low.rlim_cur = static_cast<rlim_t>(open_now + spare);
    if (setrlimit(RLIMIT_NOFILE, &low) != 0) throw std::runtime_error("cannot set RLIMIT_NOFILE");
  }
  ~LowOpenFileLimit() { setrlimit(RLIMIT_NOFILE, &before_); }
  LowOpenFileLimit(const LowOpenFileLimit&) = delete;
  LowOpenFileLimit& operator=(const LowOpenFileLimit&) = delete;

  rlim_t limit() const {
    rlimit now{};
    getrlimit(RLIMIT_NOFILE, &now);
    return now.rlim_cur;
  }

 private:
  rlimit before_{};
};

// Whether anything is at `path`, a link or a dangling one included.
inline bool entry_exists(const std::filesystem::path& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

// Every entry under `dir` with its kind and a file's content: equal before and after when
// nothing under `dir` was touched.
inline std::string fingerprint(const std::filesystem::path& dir) {
  std::vector<std::string> entries;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    std::string line = e.path().lexically_relative(dir).string() + " " +
                       std::to_string(static_cast<int>(e.symlink_status().type()));
    if (e.is_regular_file()) {
      std::string bytes(e.file_size(), '\0');
      FILE* f = fopen(e.path().c_str(), "rb");
      if (f) {
        bytes.resize(fread(bytes.data(), 1, bytes.size(), f));
        fclose(f);
      }
      line += " " + bytes;
    }
    entries.push_back(line);
  }
  std::sort(entries.begin(), entries.end());
  std::string all;
  for (const auto& line : entries) all += line + "\n";
  return all;
}

// `work`'s value, run as a user without privileges where this test runs as root (uid and gid
// 65534, in a child process, `owned` handed to that user first), else here; -1 where the child
// could not be made or did not end by itself.
inline int as_unprivileged(const std::filesystem::path& owned, const std::function<int()>& work) {
  if (geteuid() != 0) return work();
  constexpr uid_t kNobody = 65534;
  if (chown(owned.c_str(), kNobody, kNobody) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int status = 98;
    if (setgroups(0, nullptr) == 0 && setgid(kNobody) == 0 && setuid(kNobody) == 0) {
      try {
        status = work();
      } catch (...) {
        status = 99;
      }
    }
    _exit(status);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace test
