// Stopping gpulab on SIGTERM or SIGINT (a course platform's job timeout, Ctrl-C) so that it
// still leaves a report that says so, and no child process behind.
//
// How, with no work in a signal handler: stop_on_signals() blocks both signals in the calling
// thread before any other thread exists (threads inherit the mask, so none of them takes one)
// and starts a thread that waits for them with sigwait. That thread only records the signal.
// run_process (process.h) looks at the record between polls (every 100 ms at most), ends its
// child's process group and throws Stopped, which unwinds the grading to grade(): the report
// keeps the tests finished before it and says it was stopped. Children get the signals
// unblocked again before they exec.
//
// Should the grader not come back within the grace period (it is generating a large dataset,
// say), or a second signal come, the waiting thread kills every running child's group, removes
// the files still being made (temporaries.h: a half dataset), calls the last words it was given
// (write a report that names the lab and the signal) and exits with kExitStopped. finishing() hands
// the exit over to the main thread once it is writing its own report, so that the two never both
// write.
#pragma once

#include <functional>
#include <string>

namespace gpulab {

// Thrown once a stop was asked for (run_process throws it). Not a std::exception: no
// `catch (const std::exception&)` on the way, meant for real failures, takes it for one.
struct Stopped {
  int signal;
};

// How long a stopped grader may take to come back and write its report before the waiting
// thread writes the last words instead: a course platform's job timeout sends SIGTERM and
// SIGKILL some seconds later (10 s is common).
constexpr double kStopGraceS = 3;

// Installs the above. Call at most once, before any thread starts.
void stop_on_signals(double grace_s, std::function<void(int signal)> last_words);

// For a command that writes no report (datasets, bench, time): the above with no grace period, so
// that a signal stops it at once, removing what it was making, with "gpulab <command>: stopped
// by SIGINT; <after>" on stderr (a fresh line when stdout is a terminal's progress line).
void stop_at_once_on_signals(const std::string& command, const std::string& after);

// The signal that asked gpulab to stop; 0 while none has.
int stop_signal();

// Throws Stopped when a stop was asked for.
void throw_if_stopped();

// Called by the thread that writes the final report, before it does: from then on a late
// signal waits for it rather than writing the last words. Blocks for good where the last words
// are already being written (the process is about to exit).
void finishing();

// "SIGTERM", "SIGINT", or "signal N".
std::string signal_name(int signal);

// In a child between fork and exec (async-signal-safe): the signals unblocked, so that the
// program it runs can be stopped as usual.
void unblock_stop_signals();

}  // namespace gpulab
