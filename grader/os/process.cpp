#include "os/process.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>

#include "channel_protocol.h"
#include "os/inherited_fds.h"
#include "os/process_tree.h"
#include "os/seccomp_filter.h"
#include "os/stop_signals.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

// The children run_process is running (each leads its process group), for
// kill_running_processes; once that ran, `closed` and no child is started.
std::mutex running_mutex;
std::set<pid_t> running;
bool closed = false;

// The children's deadline (ChildDeadline) as the steady clock's ticks; kNoDeadline: none. Read by
// every thread that runs children, set by the grading's.
using Clock = std::chrono::steady_clock;
constexpr Clock::rep kNoDeadline = Clock::time_point::max().time_since_epoch().count();
std::atomic<Clock::rep> deadline_ticks{kNoDeadline};

Clock::time_point children_deadline() {
  return Clock::time_point(Clock::duration(deadline_ticks.load()));
}

}  // namespace

ChildDeadline::ChildDeadline(Clock::time_point at) : before_(current()) {
  deadline_ticks.store(at.time_since_epoch().count());
}

ChildDeadline::~ChildDeadline() {
  deadline_ticks.store(before_ ? before_->time_since_epoch().count() : kNoDeadline);
}

std::optional<Clock::time_point> ChildDeadline::current() {
  if (deadline_ticks.load() == kNoDeadline) return std::nullopt;
  return children_deadline();
}

void throw_if_out_of_time() {
  if (Clock::now() >= children_deadline()) throw OutOfTime{0, "", false};
}

void kill_running_processes() {
  std::lock_guard<std::mutex> lock(running_mutex);
  closed = true;
  for (const pid_t pid : running) kill(-pid, SIGKILL);
}

std::string ProcessResult::describe() const {
  if (!start_error.empty()) return "could not be started: " + start_error;
  if (cancelled) return "was stopped by gpulab, which no longer needed it";
  char buf[128];
  if (timed_out) {
    std::snprintf(buf, sizeof buf, "did not finish within the time limit (killed after %.1f s)",
                  wall_s);
    return buf;
  }
  if (signal) {
    std::snprintf(buf, sizeof buf, "was killed by signal %d (%s)", signal, strsignal(signal));
    std::string s = buf;
    if (signal == SIGSEGV) s += ": a segmentation fault, usually a bad host pointer or index";
    if (signal == SIGXCPU) s += ": it used more CPU time than allowed";
    if (signal == SIGXFSZ) s += ": it wrote a file larger than allowed";
    if (signal == SIGSYS)
      s += ": it tried to start a new process, which gpulab runs do not allow (a process's work "
           "would escape the clock; threads are fine)";
    return s;
  }
  std::snprintf(buf, sizeof buf, "exited with status %d", exit_code);
  return buf;
}

double ChildClock::wall_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

double ChildClock::cpu_s() const {
  return process_tree_cpu_seconds(pid);
}

namespace {

// One message from the channel, with the descriptors it carried; false at the channel's end
// (the child closed it, or exited). The grader's socket end is non-blocking.
bool receive_message(int fd, ChannelMessage& m) {
  m.bytes.assign(kChannelMessageMax + 1, '\0');
  iovec io{m.bytes.data(), m.bytes.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kChannelFdsMax)];
  msghdr h{};
  h.msg_iov = &io;
  h.msg_iovlen = 1;
  h.msg_control = control;
  h.msg_controllen = sizeof control;
  // Close-on-exec at once: a descriptor a run sent must never reach another child.
  ssize_t n = recvmsg(fd, &h, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  // A child that ended with answers it never read resets the connection: that is said once,
  // and what it sent before is still there to read.
  if (n < 0 && errno == ECONNRESET) n = recvmsg(fd, &h, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  if (n < 0) {
    m.bytes.clear();
    return errno == EAGAIN || errno == EINTR;  // nothing yet, but still open
  }
  // The descriptors first, whatever the bytes: each is closed when `m` goes, unless kept.
  if (h.msg_controllen > 0)
    for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < count; ++i) {
        int got;
        std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
        m.fds.emplace_back(got);
      }
    }
  m.bytes.resize(std::min(static_cast<size_t>(n), kChannelMessageMax));
  m.too_long = (h.msg_flags & MSG_TRUNC) || static_cast<size_t>(n) > kChannelMessageMax;
  m.too_many_fds = h.msg_flags & MSG_CTRUNC;
  // Zero bytes and no descriptor: the channel's end (an empty message ends it too).
  return n > 0 || !m.fds.empty();
}

}  // namespace

namespace {

// One child's descriptors on the grader's side: the pipe its stdout and stderr go to, the pipe
// an exec failure is reported through, and the extra ones it inherits (ProcessOptions'
// fd_inputs, channel and collect pipe) as (the descriptor here, the number the child sees). Each
// is closed once, when it is no longer needed or when this goes (a start that failed, a throw).
struct ChildFds {
  int out[2] = {-1, -1};
  int exec_error[2] = {-1, -1};
  std::vector<std::pair<int, int>> passed;
  int channel = -1;       // the grader's end of the channel
  int collect_read = -1;  // the grader's end of the collect pipe

  ChildFds() = default;
  ChildFds(const ChildFds&) = delete;
  ChildFds& operator=(const ChildFds&) = delete;
  ~ChildFds() {
    for (int* fd : {&out[0], &out[1], &exec_error[0], &exec_error[1], &channel, &collect_read})
      close_fd(*fd);
    close_passed();
  }
  static void close_fd(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
  // Once the child has them: the parent's copies of what it inherits.
  void close_passed() {
    for (auto& [fd, number] : passed) close_fd(fd);
    passed.clear();
  }
  // The numbers the child keeps beyond 0, 1 and 2, ascending.
  std::vector<int> kept_numbers() const {
    std::vector<int> kept;
    for (const auto& [fd, number] : passed) kept.push_back(number);
    std::sort(kept.begin(), kept.end());
    return kept;
  }
};

// Opens the child's descriptors; empty, or what could not be made.
std::string open_child_fds(const ProcessOptions& o, ChildFds& f) {
  if (pipe2(f.out, O_CLOEXEC) != 0 || pipe2(f.exec_error, O_CLOEXEC) != 0)
    return std::string("pipe: ") + std::strerror(errno);
  for (const auto& [number, bytes] : o.fd_inputs) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
      return "pipe for fd " + std::to_string(number) + ": " + std::strerror(errno);
    f.passed.emplace_back(p[0], number);
    const bool written =
        write(p[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    const int error = errno;
    close(p[1]);
    if (!written) return "pipe for fd " + std::to_string(number) + ": " + std::strerror(error);
  }
  if (o.on_message) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
      return std::string("socketpair: ") + std::strerror(errno);
    f.channel = pair[0];
    // A child that sends without end and never reads its answers fills the socket: the answers
    // it does not read are dropped rather than stopping the grader's watch of it.
    fcntl(f.channel, F_SETFL, O_NONBLOCK);
    f.passed.emplace_back(pair[1], o.channel_fd);
  }
  if (o.collect.first >= 0) {
    int c[2];
    if (pipe2(c, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
    f.collect_read = c[0];
    f.passed.emplace_back(c[1], o.collect.first);
    if (fchmod(c[0], S_IWUSR) != 0) return std::string("pipe: ") + std::strerror(errno);
  }
  return "";
}

// The child's environment, built before fork: after it only exec-safe calls run.
std::vector<std::string> child_environment(const ProcessOptions& o) {
  std::vector<std::string> env;
  for (char** e = environ; o.inherit_env && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto& o_entry : o.env) overridden |= o_entry.rfind(name + "=", 0) == 0;
    if (!overridden) env.push_back(entry);
  }
  env.insert(env.end(), o.env.begin(), o.env.end());
  return env;
}

// The forked child, up to exec: its descriptors, limits, user and filter. Each step that its
// confinement depends on must succeed, or it does not run (the errno goes back through the
// exec-error pipe, and it exits 127). Only exec-safe calls.
[[noreturn]] void become_child(const ProcessOptions& o, ChildFds& f, char* const* argv,
                               char* const* envp, const std::vector<int>& kept) {
  setsid();  // its own session and process group, so a timeout can kill everything it started
  unblock_stop_signals();  // blocked in the grader, for its own thread to take
  dup2(f.out[1], 1);
  dup2(f.out[1], 2);
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  // Extra descriptors: first out of the way of every number they go to (the error pipe too),
  // then to their numbers, where dup2 clears close-on-exec.
  const int error_fd = fcntl(f.exec_error[1], F_DUPFD_CLOEXEC, 100);
  for (auto& [fd, number] : f.passed) fd = fcntl(fd, F_DUPFD_CLOEXEC, 100);
  for (const auto& [fd, number] : f.passed) dup2(fd, number);
  rlimit none{0, 0};
  setrlimit(RLIMIT_CORE, &none);
  if (o.cpu_limit_s > 0) {
    rlimit cpu{static_cast<rlim_t>(o.cpu_limit_s), static_cast<rlim_t>(o.cpu_limit_s) + 1};
    setrlimit(RLIMIT_CPU, &cpu);
  }
  if (o.file_size_limit > 0) {
    rlimit fsz{o.file_size_limit, o.file_size_limit};
    setrlimit(RLIMIT_FSIZE, &fsz);
  }
  const auto fail = [error_fd] {
    const int e = errno;
    (void)!write(error_fd, &e, sizeof e);
    _exit(127);
  };
  if (o.process_limit > 0) {
    rlimit nproc{o.process_limit, o.process_limit};
    if (setrlimit(RLIMIT_NPROC, &nproc) != 0) fail();
  }
  if (o.address_space_limit > 0) {
    rlimit as{o.address_space_limit, o.address_space_limit};
    if (setrlimit(RLIMIT_AS, &as) != 0) fail();
  }
  if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) fail();
  // Nothing else of the grader's (inherited_fds.h).
  if (!close_on_exec_all_but(kept.data(), kept.size())) fail();
  // The group first: after setuid there is no right left to change it.
  if (o.run_as &&
      (setgroups(0, nullptr) != 0 || setgid(o.run_as->second) != 0 || setuid(o.run_as->first) != 0))
    fail();
  if (o.no_new_privs && o.seccomp_filter.empty() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    fail();
  // Last: from here on the filter holds (it lets execve through).
  if (!o.seccomp_filter.empty() && !load_seccomp_program(o.seccomp_filter)) fail();
  execvpe(argv[0], argv, envp);
  fail();
  _exit(127);  // (fail does not return)
}

// The grader's watch of a started child: its output, channel and collect pipe read as they
// come, its time limits and gpulab's stop, then what it left read once it has ended.
class ChildWatch {
 public:
  ChildWatch(const ProcessOptions& o, ProcessResult& r, ChildFds& f, pid_t pid,
             Clock::time_point started)
      : o_(o),
        r_(r),
        f_(f),
        clock_{pid, started},
        deadline_(started + std::chrono::duration<double>(o.timeout_s)) {}

  // Until the child exits or is killed (its timeout, the children's deadline, a stop, a
  // cancel); then reaps it with its group. Throws Stopped or OutOfTime as run_process says.
  void watch() {
    int status = 0;
    const bool exited = watch_until_end(status);
    const pid_t pid = clock_.pid;
    // Whatever the child left behind in its group dies with it.
    kill(-pid, SIGKILL);
    if (!exited) waitpid(pid, &status, 0);
    {
      std::lock_guard<std::mutex> lock(running_mutex);
      running.erase(pid);
    }
    read_what_is_left();
    r_.wall_s = clock_.wall_s();
    if (!r_.timed_out) {
      if (WIFEXITED(status)) r_.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) r_.signal = WTERMSIG(status);
    }
    if (stopped_by_) throw Stopped{stopped_by_};
    if (out_of_time_s_ > 0) throw OutOfTime{out_of_time_s_, "", false};
    if (r_.output_truncated)
      r_.output += "\n[... output truncated: " + std::to_string(r_.output_bytes) + " bytes in all]";
  }

 private:
  // The loop: true when the child exited (status set), false when it was killed.
  bool watch_until_end(int& status) {
    const pid_t pid = clock_.pid;
    bool pipe_open = true;
    Clock::time_point stop_deadline;
    for (;;) {
      const auto now = Clock::now();
      if (!stopped_by_ && (stopped_by_ = stop_signal())) {
        kill(-pid, o_.stop_grace_s > 0 ? SIGTERM : SIGKILL);
        stop_deadline = now + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(o_.stop_grace_s));
      }
      if (stopped_by_ && now >= stop_deadline) {
        kill(-pid, SIGKILL);
        return false;
      }
      if (o_.cancel && o_.cancel->load()) {
        r_.cancelled = true;
        kill(-pid, SIGKILL);
        return false;
      }
      // Its own timeout or the children's deadline, whichever comes first. The deadline is read
      // each time round: the grading's thread sets it, and children run in other threads too.
      if (o_.moving_timeout_s)
        deadline_ =
            clock_.started + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(o_.moving_timeout_s->load()));
      const Clock::time_point cut = children_deadline();
      const bool own_first = deadline_ <= cut;
      using Ms = std::chrono::duration<double, std::milli>;
      const Ms left = own_first ? Ms(deadline_ - now) : Ms(cut - now);
      if (left.count() <= 0) {
        if (own_first)
          r_.timed_out = true;
        else
          out_of_time_s_ = std::max(clock_.wall_s(), 1e-9);
        kill(-pid, SIGKILL);
        return false;
      }
      const int wait_ms = static_cast<int>(std::min<double>(100, left.count() + 1));
      pollfd polled[3] = {{pipe_open ? f_.out[0] : -1, POLLIN, 0},
                          {f_.channel, POLLIN, 0},
                          {f_.collect_read, POLLIN, 0}};
      if (poll(polled, 3, wait_ms) > 0) {
        if (polled[2].revents) {
          if (!collect()) f_.collect_read = -1;
          continue;
        }
        if (polled[1].revents) {
          answer_message();
          continue;
        }
        const ssize_t n = read(f_.out[0], buf_, sizeof buf_);
        if (n > 0) {
          keep(static_cast<size_t>(n));
          continue;
        }
        if (n == 0) pipe_open = false;  // every writer closed: poll now only sleeps
      }
      if (waitpid(pid, &status, WNOHANG) == pid) return true;
    }
  }

  // One message on the channel, and the answer to it; the channel closed at its end.
  void answer_message() {
    ChannelMessage m;
    m.clock = &clock_;
    if (!receive_message(f_.channel, m)) {
      ChildFds::close_fd(f_.channel);
    } else if (!m.bytes.empty() || !m.fds.empty()) {
      const std::string reply = o_.on_message(m);
      // Never SIGPIPE (the child may be gone); never blocking (it may not read).
      if (!reply.empty()) send(f_.channel, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
  }

  // Once it has ended: what the pipes already hold, without blocking, and what it sent on the
  // channel before it ended (its last message may be its record).
  void read_what_is_left() {
    fcntl(f_.out[0], F_SETFL, O_NONBLOCK);
    for (ssize_t n; (n = read(f_.out[0], buf_, sizeof buf_)) > 0;) keep(static_cast<size_t>(n));
    ChildFds::close_fd(f_.out[0]);
    if (f_.collect_read >= 0) {
      fcntl(f_.collect_read, F_SETFL, O_NONBLOCK);
      while (collect()) {
      }
      f_.collect_read = -1;
    }
    while (f_.channel >= 0) {
      ChannelMessage m;
      m.clock = &clock_;
      if (!receive_message(f_.channel, m) || (m.bytes.empty() && m.fds.empty())) break;
      o_.on_message(m);
    }
    ChildFds::close_fd(f_.channel);
  }

  // Keeps what fits of the n bytes just read into buf_.
  void keep(size_t n) {
    r_.output_bytes += n;
    // Once cut, nothing more: the cut may have left room that a later read would fill.
    const size_t room = r_.output_truncated                  ? 0
                        : o_.output_limit > r_.output.size() ? o_.output_limit - r_.output.size()
                                                             : 0;
    r_.output.append(buf_, std::min(room, n));
    if (n > room && !r_.output_truncated) {
      r_.output_truncated = true;
      // Cut between characters: the first byte left out tells whether the cut split one.
      r_.output.resize(utf8_head(r_.output + buf_[room], r_.output.size()).size());
    }
  }

  // Reads what the collect pipe holds (up to its limit); false, with the pipe closed, at its end.
  bool collect() {
    const ssize_t n = read(f_.collect_read, buf_, sizeof buf_);
    if (n <= 0) {
      close(f_.collect_read);
      return false;
    }
    const size_t room = o_.collect.second - std::min(o_.collect.second, r_.collected.size());
    r_.collected.append(buf_, std::min(room, static_cast<size_t>(n)));
    r_.collected_truncated |= static_cast<size_t>(n) > room;
    return true;
  }

  const ProcessOptions& o_;
  ProcessResult& r_;
  ChildFds& f_;
  const ChildClock clock_;
  // Its own timeout, in seconds as a double: a timeout of any size (4 hours, or none given as
  // a huge number) does not overflow the clock's ticks.
  std::chrono::time_point<Clock, std::chrono::duration<double>> deadline_;
  double out_of_time_s_ = 0;  // when killed at the children's deadline (ChildDeadline), its time
  int stopped_by_ = 0;        // the stop signal, once the child has been told
  char buf_[65536];
};

}  // namespace

ProcessResult run_process(const ProcessOptions& o) {
  ProcessResult r;
  ChildFds f;
  r.start_error = open_child_fds(o, f);
  if (!r.start_error.empty()) return r;
  std::vector<char*> argv;
  for (const auto& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::vector<int> kept = f.kept_numbers();
  std::vector<std::string> env = child_environment(o);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  const auto t0 = Clock::now();
  std::unique_lock<std::mutex> registry(running_mutex);
  if (closed || stop_signal()) throw Stopped{stop_signal()};
  if (t0 >= children_deadline()) throw OutOfTime{0, "", false};
  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) become_child(o, f, argv.data(), envp.data(), kept);
  running.insert(pid);
  registry.unlock();
  ChildFds::close_fd(f.out[1]);
  ChildFds::close_fd(f.exec_error[1]);
  f.close_passed();
  int exec_errno = 0;
  if (read(f.exec_error[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno)
    r.start_error = o.argv[0] + ": " + std::strerror(exec_errno);
  ChildFds::close_fd(f.exec_error[0]);
  ChildWatch(o, r, f, pid, t0).watch();
  return r;
}

}  // namespace gpulab
