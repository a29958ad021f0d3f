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

ProcessResult run_process(const ProcessOptions& o) {
  ProcessResult r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  // An exec failure is reported back through a second close-on-exec pipe.
  int err_fds[2];
  if (pipe2(err_fds, O_CLOEXEC) != 0) {
    close(fds[0]);
    close(fds[1]);
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  // The child's extra descriptors, as (what the parent made, the number the child sees); the
  // parent's ends to close once the child has them.
  std::vector<std::pair<int, int>> child_fds;
  int channel = -1, collect_read = -1;
  const auto close_all = [&] {
    for (const auto& [fd, number] : child_fds) close(fd);
    for (int fd : {channel, collect_read, fds[0], fds[1], err_fds[0], err_fds[1]})
      if (fd >= 0) close(fd);
  };
  for (const auto& [number, bytes] : o.fd_inputs) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0 ||
        write(p[1], bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
      r.start_error =
          std::string("pipe for fd ") + std::to_string(number) + ": " + std::strerror(errno);
      close_all();
      return r;
    }
    close(p[1]);
    child_fds.emplace_back(p[0], number);
  }
  if (o.on_message) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
      r.start_error = std::string("socketpair: ") + std::strerror(errno);
      close_all();
      return r;
    }
    channel = pair[0];
    // A child that sends without end and never reads its answers fills the socket: the answers
    // it does not read are dropped rather than stopping the grader's watch of it.
    fcntl(channel, F_SETFL, O_NONBLOCK);
    child_fds.emplace_back(pair[1], o.channel_fd);
  }
  if (o.collect.first >= 0) {
    int c[2];
    if (pipe2(c, O_CLOEXEC) != 0 || fchmod(c[0], S_IWUSR) != 0) {
      r.start_error = std::string("pipe: ") + std::strerror(errno);
      close_all();
      return r;
    }
    collect_read = c[0];
    child_fds.emplace_back(c[1], o.collect.first);
  }
  std::vector<char*> argv;
  for (const auto& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The numbers the child keeps of its descriptors beyond 0, 1 and 2, ascending.
  std::vector<int> kept_fds;
  for (const auto& [fd, number] : child_fds) kept_fds.push_back(number);
  std::sort(kept_fds.begin(), kept_fds.end());
  // The child's environment is built here, before fork: after it only exec-safe calls run.
  std::vector<std::string> env_strings;
  for (char** e = environ; o.inherit_env && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto& o_entry : o.env) overridden |= o_entry.rfind(name + "=", 0) == 0;
    if (!overridden) env_strings.push_back(entry);
  }
  env_strings.insert(env_strings.end(), o.env.begin(), o.env.end());
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  const auto t0 = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> registry(running_mutex);
  if (closed || stop_signal()) {
    registry.unlock();
    close_all();
    throw Stopped{stop_signal()};
  }
  if (t0 >= children_deadline()) {
    registry.unlock();
    close_all();
    throw OutOfTime{0, "", false};
  }
  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    registry.unlock();
    close_all();
    return r;
  }
  if (pid == 0) {
    setsid();  // its own session and process group, so a timeout can kill everything it started
    unblock_stop_signals();  // blocked in the grader, for its own thread to take
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    // Extra descriptors: first out of the way of every number they go to (the error pipe too),
    // then to their numbers, where dup2 clears close-on-exec.
    err_fds[1] = fcntl(err_fds[1], F_DUPFD_CLOEXEC, 100);
    for (auto& [fd, number] : child_fds) fd = fcntl(fd, F_DUPFD_CLOEXEC, 100);
    for (const auto& [fd, number] : child_fds) dup2(fd, number);
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
    // Each step that the child's confinement depends on must succeed, or it does not run.
    auto fail = [&] {
      const int e = errno;
      (void)!write(err_fds[1], &e, sizeof e);
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
    if (!close_on_exec_all_but(kept_fds.data(), kept_fds.size())) fail();
    // The group first: after setuid there is no right left to change it.
    if (o.run_as && (setgroups(0, nullptr) != 0 || setgid(o.run_as->second) != 0 ||
                     setuid(o.run_as->first) != 0))
      fail();
    if (o.no_new_privs && o.seccomp_filter.empty() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
      fail();
    // Last: from here on the filter holds (it lets execve through).
    if (!o.seccomp_filter.empty() && !load_seccomp_program(o.seccomp_filter)) fail();
    execvpe(argv[0], argv.data(), envp.data());
    fail();
  }
  running.insert(pid);
  registry.unlock();
  close(fds[1]);
  close(err_fds[1]);
  for (const auto& [fd, number] : child_fds) close(fd);
  int exec_errno = 0;
  if (read(err_fds[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno)
    r.start_error = o.argv[0] + ": " + std::strerror(exec_errno);
  close(err_fds[0]);

  const ChildClock clock{pid, t0};
  const auto deadline = t0 + std::chrono::duration<double>(o.timeout_s);
  int status = 0;
  bool exited = false;
  char buf[65536];
  // Keeps what fits of the n bytes just read into buf.
  const auto keep = [&](size_t n) {
    r.output_bytes += n;
    // Once cut, nothing more: the cut may have left room that a later read would fill.
    const size_t room = r.output_truncated                 ? 0
                        : o.output_limit > r.output.size() ? o.output_limit - r.output.size()
                                                           : 0;
    r.output.append(buf, std::min(room, n));
    if (n > room && !r.output_truncated) {
      r.output_truncated = true;
      // Cut between characters: the first byte left out tells whether the cut split one.
      r.output.resize(utf8_head(r.output + buf[room], r.output.size()).size());
    }
  };
  // Reads what the collect pipe holds (up to its limit); false, with the pipe closed, at its end.
  const auto collect = [&](int fd) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
      close(fd);
      return false;
    }
    const size_t room = o.collect.second - std::min(o.collect.second, r.collected.size());
    r.collected.append(buf, std::min(room, static_cast<size_t>(n)));
    r.collected_truncated |= static_cast<size_t>(n) > room;
    return true;
  };
  bool pipe_open = true;
  double out_of_time_s = 0;  // when killed at the children's deadline (ChildDeadline), its time
  int stopped_by = 0;        // the stop signal, once the child has been told
  std::chrono::steady_clock::time_point stop_deadline;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (!stopped_by && (stopped_by = stop_signal())) {
      kill(-pid, o.stop_grace_s > 0 ? SIGTERM : SIGKILL);
      stop_deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(o.stop_grace_s));
    }
    if (stopped_by && now >= stop_deadline) {
      kill(-pid, SIGKILL);
      break;
    }
    if (o.cancel && o.cancel->load()) {
      r.cancelled = true;
      kill(-pid, SIGKILL);
      break;
    }
    // Its own timeout or the children's deadline, whichever comes first. The deadline is read
    // each time round: the grading's thread sets it, and children run in other threads too.
    const Clock::time_point cut = children_deadline();
    const bool own_first = deadline <= cut;
    using Ms = std::chrono::duration<double, std::milli>;
    const Ms left = own_first ? Ms(deadline - now) : Ms(cut - now);
    if (left.count() <= 0) {
      if (own_first)
        r.timed_out = true;
      else
        out_of_time_s = std::max(clock.wall_s(), 1e-9);
      kill(-pid, SIGKILL);
      break;
    }
    const int wait_ms = static_cast<int>(std::min<double>(100, left.count() + 1));
    pollfd polled[3] = {
        {pipe_open ? fds[0] : -1, POLLIN, 0}, {channel, POLLIN, 0}, {collect_read, POLLIN, 0}};
    if (poll(polled, 3, wait_ms) > 0) {
      if (polled[2].revents) {
        if (!collect(collect_read)) collect_read = -1;
        continue;
      }
      if (polled[1].revents) {
        ChannelMessage m;
        m.clock = &clock;
        if (!receive_message(channel, m)) {
          close(channel);
          channel = -1;
        } else if (!m.bytes.empty() || !m.fds.empty()) {
          const std::string reply = o.on_message(m);
          // Never SIGPIPE (the child may be gone); never blocking (it may not read).
          if (!reply.empty())
            send(channel, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        continue;
      }
      const ssize_t n = read(fds[0], buf, sizeof buf);
      if (n > 0) {
        keep(static_cast<size_t>(n));
        continue;
      }
      if (n == 0) pipe_open = false;  // every writer closed: poll now only sleeps
    }
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      break;
    }
  }
  // Whatever the child left behind in its group dies with it.
  kill(-pid, SIGKILL);
  if (!exited) waitpid(pid, &status, 0);
  {
    std::lock_guard<std::mutex> lock(running_mutex);
    running.erase(pid);
  }
  // Drain what is already in the pipe without blocking.
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) keep(static_cast<size_t>(n));
  close(fds[0]);
  if (collect_read >= 0) {
    fcntl(collect_read, F_SETFL, O_NONBLOCK);
    while (collect(collect_read)) {
    }
    collect_read = -1;
  }
  // What the child sent before it ended is still read: its last message may be its record.
  while (channel >= 0) {
    ChannelMessage m;
    m.clock = &clock;
    if (!receive_message(channel, m) || (m.bytes.empty() && m.fds.empty())) break;
    o.on_message(m);
  }
  if (channel >= 0) close(channel);
  if (collect_read >= 0) close(collect_read);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.timed_out) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  if (stopped_by) throw Stopped{stopped_by};
  if (out_of_time_s > 0) throw OutOfTime{out_of_time_s, "", false};
  if (r.output_truncated)
    r.output += "\n[... output truncated: " + std::to_string(r.output_bytes) + " bytes in all]";
  return r;
}

}  // namespace gpulab
