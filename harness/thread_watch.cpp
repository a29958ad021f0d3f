#include "thread_watch.h"

#include <dirent.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

namespace gpulab {

namespace {

// The ids in /proc/self/task: every thread of this process, the exiting ones included.
std::set<pid_t> live_threads() {
  std::set<pid_t> ids;
  DIR* d = opendir("/proc/self/task");
  if (!d) throw std::runtime_error("cannot list this process's threads (/proc/self/task)");
  while (const dirent* e = readdir(d))
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
      ids.insert(static_cast<pid_t>(std::strtol(e->d_name, nullptr, 10)));
  closedir(d);
  return ids;
}

}  // namespace

ThreadWatch::ThreadWatch() : before_(live_threads()) {}

size_t ThreadWatch::started_and_alive() const {
  size_t left = 0;
  for (pid_t id : live_threads()) left += before_.count(id) == 0;
  return left;
}

void ThreadWatch::check_none_left(const char* what) const {
  // A thread just joined may be listed a moment longer while the kernel finishes its exit:
  // only one still there after a few milliseconds is running.
  size_t left = started_and_alive();
  for (int i = 0; left > 0 && i < 20; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    left = started_and_alive();
  }
  if (left == 0) return;
  throw std::runtime_error(
      std::string("your ") + what + " returned while " + std::to_string(left) +
      " thread(s) it started were still running. A timed call must finish its work before it "
      "returns (join the threads you start): work left running would escape the clock.");
}

}  // namespace gpulab
