// The seccomp programs gpulab loads into runs of student code (docs/GRADING.md, "The sandbox").
//
// no_new_processes_filter keeps a run from starting processes: fork, vfork and a clone that
// does not make a thread end it with SIGSYS (process.cpp words that for the student); clone3,
// whose flags a filter cannot read, says ENOSYS, so the C library makes its threads with clone.
// A process's CPU time is charged to no sample (threads' is: harness/timing.h), and its work
// could outlive the call that started it. Handed to bubblewrap (--seccomp), which loads it just
// before it starts the runner.
//
// confined_run_filter is the same and more, for a runner started by a program that watches it
// (compute-sanitizer, which bubblewrap cannot filter: it starts the runner as its child): no
// call aimed at another process works (kill, tgkill and sigqueue to a process other than the
// caller, tkill, pidfd_open and pidfd_send_signal, ptrace, process_vm_readv and writev, kcmp,
// prlimit of another process); each says EPERM. gpulab-confine (confine_main.cpp) loads it just
// before it becomes the runner, so it binds the student's code from its first instruction.
#pragma once

#include <sys/types.h>

#include <string>

namespace gpulab {

// The compiled classic-BPF program, as bubblewrap reads it; empty on an architecture gpulab
// has no program for (the sandbox then runs without it and says so).
std::string no_new_processes_filter();

// The program for process `self` (its id as the process sees it); empty as above.
std::string confined_run_filter(pid_t self);

// Loads `program` (one of the above) into the calling process, with no_new_privs first, which
// an unprivileged process needs to load a filter; false with errno set where it could not. Two
// system calls and no allocation: safe between fork and exec (process.cpp).
bool load_seccomp_program(const std::string& program);

// Loads confined_run_filter(getpid()) into the calling process, as load_seccomp_program does.
bool confine_this_process();

}  // namespace gpulab
