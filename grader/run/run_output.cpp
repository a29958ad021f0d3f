#include "run/run_output.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gpulab {

namespace {

// Entries named in a refusal: enough to see what the run did.
constexpr size_t kNamedEntries = 3;

// An entry's name as a message can quote it: the run chose it, so control characters and the
// like become '?', and a long one is cut.
std::string quoted(const std::string& name) {
  std::string q;
  for (const char c : name.substr(0, 64)) q += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (name.size() > 64) q += "...";
  return "'" + q + "'";
}

bool plain(const struct stat& st) {
  return S_ISREG(st.st_mode) && st.st_nlink == 1;
}

// What the entry is, as "your run left 'x' in its output folder ..." goes on.
std::string what_it_is(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "as a symbolic link";
  if (S_ISDIR(st.st_mode)) return "as a directory";
  if (S_ISFIFO(st.st_mode)) return "as a named pipe";
  if (S_ISSOCK(st.st_mode)) return "as a socket";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "as a device";
  if (S_ISREG(st.st_mode))
    return "as a hard link (a file with " + std::to_string(st.st_nlink) + " names)";
  return "as something other than a file";
}

std::string left_as(const std::string& name, const struct stat& st) {
  return "your run left " + quoted(name) + " in its output folder " + what_it_is(st);
}

constexpr const char* kOnlyPlainFiles = "; gpulab reads only plain files your code wrote there";

}  // namespace

RunFile::RunFile() = default;
RunFile::RunFile(RunFile&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)),
      problem_(std::move(o.problem_)),
      buffer_(std::move(o.buffer_)),
      stream_(std::move(o.stream_)) {}
RunFile& RunFile::operator=(RunFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    problem_ = std::move(o.problem_);
    buffer_ = std::move(o.buffer_);
    stream_ = std::move(o.stream_);
  }
  return *this;
}
RunFile::~RunFile() {
  if (fd_ >= 0) close(fd_);
}

std::istream& RunFile::stream() {
  if (!stream_) throw std::logic_error("RunFile::stream() of a file that is not open");
  return *stream_;
}

RunOutput::RunOutput(const std::filesystem::path& dir) {
  dir_fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir_fd_ < 0)
    unopened_ = "gpulab could not open your run's output folder (" +
                std::string(std::strerror(errno)) + ")";
}

const std::string& RunOutput::refused() const {
  if (looked_) return refused_;
  looked_ = true;
  if (dir_fd_ < 0) return refused_ = unopened_;
  const int listing_fd = fcntl(dir_fd_, F_DUPFD_CLOEXEC, 0);
  DIR* listing = listing_fd >= 0 ? fdopendir(listing_fd) : nullptr;
  if (!listing) {
    if (listing_fd >= 0) close(listing_fd);
    return refused_ = "gpulab could not list your run's output folder";
  }
  std::vector<std::string> found;  // "your run left 'x' in its output folder as ..."
  while (const dirent* e = readdir(listing)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone
    if (!plain(st)) found.push_back(left_as(name, st));
  }
  closedir(listing);
  if (found.empty()) return refused_;
  std::sort(found.begin(), found.end());  // the same message every time
  for (size_t i = 0; i < std::min(found.size(), kNamedEntries); ++i)
    refused_ += (i ? "; " : "") + found[i];
  if (found.size() > kNamedEntries)
    refused_ += "; and " + std::to_string(found.size() - kNamedEntries) + " more entries like them";
  return refused_ += kOnlyPlainFiles;
}

RunOutput::~RunOutput() {
  if (dir_fd_ >= 0) close(dir_fd_);
}

RunFile RunOutput::open(const std::string& name) const {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
    throw std::invalid_argument("RunOutput::open takes a file name, not \"" + name + "\"");
  RunFile f;
  if (dir_fd_ < 0) {
    f.problem_ = unopened_;
    return f;
  }
  // Non-blocking, so that a named pipe swapped in after the check cannot block the grader.
  const int fd =
      openat(dir_fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int error = errno;
    struct stat st {};
    if (error == ENOENT)
      f.problem_ = "your run left no " + quoted(name) + " in its output folder";
    else if (fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !plain(st))
      f.problem_ = left_as(name, st) + kOnlyPlainFiles;  // a link: O_NOFOLLOW gives ELOOP
    else
      f.problem_ = "gpulab could not open " + quoted(name) + " in your run's output folder (" +
                   std::strerror(error) + ")";
    return f;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !plain(st)) {  // what was opened, not what a name led to
    f.problem_ = left_as(name, st) + kOnlyPlainFiles;
    close(fd);
    return f;
  }
  f.fd_ = fd;
  f.buffer_ = std::make_unique<FdStreamBuf>(fd);
  f.stream_ = std::make_unique<std::istream>(f.buffer_.get());
  return f;
}

NpyArray RunOutput::read_npy(const std::string& name, DType dtype) const {
  RunFile f = open(name);
  if (!f.is_open()) throw NpyError(f.problem());
  return gpulab::read_npy(f.stream(), name, dtype);
}

}  // namespace gpulab
