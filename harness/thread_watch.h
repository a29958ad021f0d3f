// The threads of this process, so that a timed call cannot leave work running after it
// returns: a thread it started and did not end would go on working outside the clock (launching
// kernels after the sample's stop, or computing a CPU part's next result).
#pragma once

#include <sys/types.h>

#include <set>

namespace gpulab {

class ThreadWatch {
 public:
  ThreadWatch();  // the threads alive now
  // Throws, naming `what`, when a thread that was not alive at construction is alive now.
  void check_none_left(const char* what) const;

 private:
  size_t started_and_alive() const;
  std::set<pid_t> before_;
};

}  // namespace gpulab
