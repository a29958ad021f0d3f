// The seccomp program that keeps a run from starting processes: fork, vfork and a clone that
// does not make a thread end it with SIGSYS (process.cpp words that for the student); clone3,
// whose flags a filter cannot read, says ENOSYS, so the C library makes its threads with clone.
// A process's CPU time is charged to no sample (threads' is: harness/timing.h), and its work
// could outlive the call that started it. Handed to bubblewrap (--seccomp), which loads it just
// before it starts the runner.
#pragma once

#include <string>

namespace gpulab {

// The compiled classic-BPF program, as bubblewrap reads it; empty on an architecture gpulab
// has no program for (the sandbox then runs without it and says so).
std::string no_new_processes_filter();

}  // namespace gpulab
