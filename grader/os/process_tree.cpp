#include "os/process_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace gpulab {

namespace {

// The whole text of a small /proc file; "" where it cannot be read.
std::string read_small(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return text;
}

// The children of `pid` (of every thread of it), from /proc/<pid>/task/<tid>/children.
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> kids;
  const std::string task = "/proc/" + std::to_string(pid) + "/task";
  DIR* d = ::opendir(task.c_str());
  if (!d) return kids;
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string text = read_small(task + "/" + e->d_name + "/children");
    const char* at = text.c_str();
    for (char* end = nullptr;; at = end) {
      const long id = std::strtol(at, &end, 10);
      if (end == at) break;
      kids.push_back(static_cast<pid_t>(id));
    }
  }
  ::closedir(d);
  return kids;
}

// What /proc/<pid>/stat says of the children `pid` has waited for, cutime + cstime, in seconds.
double waited_children_seconds(pid_t pid) {
  const std::string text = read_small("/proc/" + std::to_string(pid) + "/stat");
  // After the command's name, which may hold anything but ends at the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  const char* at = text.c_str() + close + 1;
  char* end = nullptr;
  // Fields 3 (state) to 17 (cstime): cutime is the 16th, cstime the 17th.
  unsigned long long ticks = 0;
  for (int field = 3; field <= 17; ++field) {
    while (*at == ' ') ++at;
    if (field == 3) {
      ++at;  // the state letter
      continue;
    }
    const unsigned long long v = std::strtoull(at, &end, 10);
    if (end == at) return 0;
    at = end;
    if (field >= 16) ticks += v;
  }
  return static_cast<double>(ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

double own_seconds(pid_t pid) {
  clockid_t clock;
  timespec ts{};
  if (::clock_getcpuclockid(pid, &clock) != 0 || ::clock_gettime(clock, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

double process_tree_cpu_seconds(pid_t root) {
  double total = 0;
  std::vector<pid_t> todo = {root};
  // A tree changes while it is read (a process ends, or starts where that is allowed): each pid
  // is read once, and the walk is bounded.
  for (size_t i = 0; i < todo.size() && i < 4096; ++i) {
    const pid_t pid = todo[i];
    total += own_seconds(pid) + waited_children_seconds(pid);
    for (const pid_t kid : children_of(pid)) todo.push_back(kid);
  }
  return total;
}

}  // namespace gpulab
