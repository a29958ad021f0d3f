// What a child keeps of the grader's open descriptors: only those it is given. The grader is
// multithreaded, and files it opens in one thread (an expected output a check reads, a lock, a
// folder being removed) are open, often without close-on-exec (std::ifstream sets none), while
// another thread forks a child: unmarked, such a descriptor would reach student code, which could
// read the expected output through /proc/self/fd whatever the file's path or mode. run_process
// marks every descriptor of the forked child close-on-exec before it starts the program, but
// the ones it hands over (process.h).
#pragma once

#include <cstddef>

namespace gpulab {

// Marks every descriptor but 0, 1, 2 and the `count` numbers of `keep` (ascending)
// close-on-exec: close_range(2) where the kernel has CLOSE_RANGE_CLOEXEC (Linux 5.11), else
// through the listing of /proc/self/fd. Async-signal-safe (no allocation), for a forked child.
// False, errno set, where neither way was possible.
bool close_on_exec_all_but(const int* keep, size_t count);

// The two ways, each on its own (for the tests: this kernel may have only one).
bool close_on_exec_by_range(const int* keep, size_t count);
bool close_on_exec_by_listing(const int* keep, size_t count);

}  // namespace gpulab
