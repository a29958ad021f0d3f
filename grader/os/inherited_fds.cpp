#include "os/inherited_fds.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <unistd.h>

#include <cerrno>

namespace gpulab {

namespace {

bool kept(int fd, const int* keep, size_t count) {
  if (fd <= 2) return true;
  for (size_t i = 0; i < count; ++i)
    if (keep[i] == fd) return true;
  return false;
}

}  // namespace

bool close_on_exec_by_range(const int* keep, size_t count) {
  unsigned from = 3;
  for (size_t i = 0; i < count; ++i) {
    const unsigned k = static_cast<unsigned>(keep[i]);
    if (k < from) continue;
    if (k > from && close_range(from, k - 1, CLOSE_RANGE_CLOEXEC) != 0) return false;
    from = k + 1;
  }
  return close_range(from, ~0u, CLOSE_RANGE_CLOEXEC) == 0;
}

bool close_on_exec_by_listing(const int* keep, size_t count) {
  const int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return false;
  alignas(dirent64) char buf[4096];
  ssize_t n;
  while ((n = getdents64(dir, buf, sizeof buf)) > 0) {
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const dirent64*>(buf + at);
      at += e->d_reclen;
      int fd = 0;
      const char* c = e->d_name;
      if (*c < '0' || *c > '9') continue;  // "." and ".."
      for (; *c >= '0' && *c <= '9'; ++c) fd = fd * 10 + (*c - '0');
      if (fd == dir || kept(fd, keep, count)) continue;
      const int flags = fcntl(fd, F_GETFD);
      if (flags >= 0) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    }
  }
  const int e = errno;
  close(dir);
  errno = e;
  return n == 0;
}

bool close_on_exec_all_but(const int* keep, size_t count) {
  return close_on_exec_by_range(keep, count) || close_on_exec_by_listing(keep, count);
}

}  // namespace gpulab
