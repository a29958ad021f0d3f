// Running an untrusted child process: its own session and process group, resource limits,
// a wall-clock timeout that kills the whole group, and output captured up to a bound.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "unique_fd.h"

namespace gpulab {

// A running child's clock, read from outside it: the wall time since it started, and the CPU
// time of its whole process tree (process_tree.h).
struct ChildClock {
  pid_t pid = -1;
  std::chrono::steady_clock::time_point started;
  double wall_s() const;
  double cpu_s() const;
};

// One message a child sent on its channel (ProcessOptions::channel_fd), as it came.
struct ChannelMessage {
  std::string bytes;
  bool too_long = false;              // more than the channel's limit: cut (and refused)
  std::vector<UniqueFd> fds;          // the descriptors it carried, now the grader's
  bool too_many_fds = false;          // more than the channel's limit: the rest were closed
  const ChildClock* clock = nullptr;  // the child's, when the message came
};

struct ProcessOptions {
  std::vector<std::string> argv;
  std::filesystem::path cwd;
  double timeout_s = 60;
  size_t output_limit = 64 * 1024;  // bytes of stdout+stderr kept; the rest is counted, dropped
  double cpu_limit_s = 0;           // RLIMIT_CPU; 0: none
  size_t file_size_limit = 0;       // RLIMIT_FSIZE in bytes; 0: none
  // NAME=VALUE entries set in the child's environment, over what it inherits.
  std::vector<std::string> env;
  // false: the child gets `env` alone, nothing of the grader's environment.
  bool inherit_env = true;
  size_t process_limit = 0;  // RLIMIT_NPROC (processes and threads of its real uid); 0: none
  // RLIMIT_AS in bytes; 0: none. Not for CUDA programs, which reserve far more address space
  // than they use.
  size_t address_space_limit = 0;
  // Set: the child drops to this uid and gid, with no supplementary groups, before exec (the
  // grader must be root). RLIMIT_NPROC does not bind root, so a process limit needs this there.
  std::optional<std::pair<uid_t, gid_t>> run_as = std::nullopt;
  // The child, and all it starts, can gain no privilege (PR_SET_NO_NEW_PRIVS: a set-user-ID
  // program runs as its caller), so a child dropped to another user stays that user.
  bool no_new_privs = false;
  // A seccomp program (classic BPF, as seccomp_filter.h makes it) the child loads last, just
  // before exec, with no_new_privs; empty: none. For children started without bubblewrap, which
  // otherwise loads it (its --seccomp).
  std::string seccomp_filter = {};
  // Bytes the child reads from file descriptors of its own (bubblewrap's --seccomp program):
  // each is a pipe holding them, at that number in the child. At most a pipe's buffer each.
  // These, the channel, the collect pipe and 0, 1, 2 are all a child inherits of the grader's
  // descriptors (inherited_fds.h).
  std::vector<std::pair<int, std::string>> fd_inputs = {};
  // A conversation with the child while it runs (harness/channel_protocol.h): a Unix seqpacket
  // socket at fd `channel_fd` in the child. Each message it sends goes to `on_message` as it
  // comes, with the descriptors it carried (received close-on-exec: no other child inherits
  // them); what that returns, if not empty, is sent back as one message.
  int channel_fd = -1;
  std::function<std::string(ChannelMessage& message)> on_message = nullptr;
  // A channel the child writes to while it runs (the CPU backend's report, sim/README.md): a
  // pipe at fd `collect.first` in the child, read as the bytes come, so that what the child
  // wrote stays the grader's whatever it does to its end later. Owner-write-only, so that the
  // child cannot open it again for reading through /proc (under a root grader, which runs it as
  // another user, not even after a chmod). Up to `collect.second` bytes are kept.
  std::pair<int, size_t> collect = {-1, 0};
  // When gpulab is stopped (stop_signals.h) while the child runs: 0 kills its process group at
  // once; more sends SIGTERM first and gives it this long to end (a gpulab grade that grade-all
  // started writes its report).
  double stop_grace_s = 0;
  // Set: the child is killed with its group once this is true (ProcessResult::cancelled): work
  // the grader started ahead and no longer needs (grade/sanitizer_runs.h).
  const std::atomic<bool>* cancel = nullptr;
  // Set: the child's time limit on the clock, in seconds from its start, read each time round
  // in place of timeout_s, so that whoever hands the child its work as it goes (a batch of
  // datasets, grade/correctness_batch.h) can give each piece a limit of its own.
  const std::atomic<double>* moving_timeout_s = nullptr;
};

struct ProcessResult {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  bool timed_out = false;
  bool cancelled = false;  // killed because ProcessOptions::cancel said so
  bool output_truncated = false;
  size_t output_bytes = 0;  // everything it printed, kept or not
  // stdout and stderr, interleaved, up to output_limit: the child's bytes as they came, for
  // parsing; quote them only through safe_text.h (quote_tail), which makes them safe text.
  std::string output;
  double wall_s = 0;
  std::string collected;  // what came through ProcessOptions::collect, as it came
  bool collected_truncated = false;
  std::string start_error;  // set when it could not be started at all

  bool ok() const { return start_error.empty() && !timed_out && signal == 0 && exit_code == 0; }
  // "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 60 s".
  std::string describe() const;
};

// A time by which every child must have ended: a grading's time budget (time_budget.h) sets
// one while it grades, so that each child, whoever starts it (a build, a run, the reference's
// runs, compute-sanitizer's side by side), ends within it. Thrown by run_process for a child
// still running then (killed with its group) or not started because the time had come; the
// child's own timeout, where it comes first, is a timeout as before (ProcessResult::timed_out).
// Not a std::exception, as Stopped is not: no `catch (const std::exception&)` on the way takes
// it for a failure.
struct OutOfTime {
  double ran_s = 0;  // how long the child had run when it was stopped; 0: it was not started
  // What the child was, for its reader ("your code's run on the dataset int-1"): empty from
  // run_process; the first caller on the way up that knows sets it.
  std::string during;
  // `during` is a run on a hidden dataset: the instructor's to know, told to a student only
  // with the results of the hidden datasets.
  bool during_hidden = false;
};

// `work()`, and what it returns; an OutOfTime from it that does not say what ran gets `during`.
template <class Work>
auto while_doing(const std::string& during, Work work) -> decltype(work()) {
  try {
    return work();
  } catch (OutOfTime& stop) {
    if (stop.during.empty()) stop.during = during;
    throw;
  }
}

// Sets the children's deadline to `at` for as long as it lives, then puts the one before it
// back (deadlines nest: a grading's, then a part's within it). The grading's thread alone sets
// them; every thread's children keep them.
class ChildDeadline {
 public:
  explicit ChildDeadline(std::chrono::steady_clock::time_point at);
  ~ChildDeadline();
  ChildDeadline(const ChildDeadline&) = delete;
  ChildDeadline& operator=(const ChildDeadline&) = delete;

  // The deadline in force; nullopt where none is.
  static std::optional<std::chrono::steady_clock::time_point> current();

 private:
  std::optional<std::chrono::steady_clock::time_point> before_;
};

// Throws OutOfTime (ran_s 0) once the children's deadline has passed: for work of the grader's
// own that would start past it (making a dataset).
void throw_if_out_of_time();

// Throws Stopped (stop_signals.h) when gpulab is stopped before or while the child runs, once
// the child's group is ended; throws OutOfTime (above) for a child the deadline stopped.
ProcessResult run_process(const ProcessOptions& options);

// Kills the process group of every child run_process is running, and starts none after: for
// the last moments of a stopped gpulab (stop_signals.h).
void kill_running_processes();

}  // namespace gpulab
