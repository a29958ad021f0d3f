// The CPU time of a process and every process below it, read from outside: the grader's own
// measure of a run's work (its clock outside the run's process, run_channel.h), which nothing
// the run does can lower. A run may start no process (the sandbox's seccomp filter), so its tree
// is bubblewrap's and the runner; it is summed whole anyway, children included.
#pragma once

#include <sys/types.h>

namespace gpulab {

// The CPU time, user and system, in seconds, of `root` and its descendants now: for each living
// process its own clock (every thread, the ended ones included, to the nanosecond), and the
// children it has waited for (to the clock tick). 0 where `root` is gone.
double process_tree_cpu_seconds(pid_t root);

}  // namespace gpulab
