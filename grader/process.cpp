#include "process.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace gpulab {

std::string ProcessResult::describe() const {
  if (!start_error.empty()) return "could not be started: " + start_error;
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
    return s;
  }
  std::snprintf(buf, sizeof buf, "exited with status %d", exit_code);
  return buf;
}

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
  std::vector<char*> argv;
  for (const auto& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
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
  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {fds[0], fds[1], err_fds[0], err_fds[1]}) close(fd);
    return r;
  }
  if (pid == 0) {
    setsid();  // its own session and process group, so a timeout can kill everything it started
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
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
    // The group first: after setuid there is no right left to change it.
    if (o.run_as && (setgroups(0, nullptr) != 0 || setgid(o.run_as->second) != 0 ||
                     setuid(o.run_as->first) != 0))
      fail();
    execvpe(argv[0], argv.data(), envp.data());
    fail();
  }
  close(fds[1]);
  close(err_fds[1]);
  int exec_errno = 0;
  if (read(err_fds[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno)
    r.start_error = o.argv[0] + ": " + std::strerror(exec_errno);
  close(err_fds[0]);

  const auto deadline = t0 + std::chrono::duration<double>(o.timeout_s);
  int status = 0;
  bool exited = false;
  char buf[65536];
  bool pipe_open = true;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    const int wait_ms = static_cast<int>(std::min<double>(
        100, std::chrono::duration<double, std::milli>(deadline - now).count() + 1));
    pollfd p{pipe_open ? fds[0] : -1, POLLIN, 0};
    if (poll(&p, 1, wait_ms) > 0) {
      const ssize_t n = read(fds[0], buf, sizeof buf);
      if (n > 0) {
        r.output_bytes += static_cast<size_t>(n);
        const size_t room = o.output_limit > r.output.size() ? o.output_limit - r.output.size() : 0;
        r.output.append(buf, std::min(room, static_cast<size_t>(n)));
        if (static_cast<size_t>(n) > room) r.output_truncated = true;
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
  // Drain what is already in the pipe without blocking.
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) {
    r.output_bytes += static_cast<size_t>(n);
    const size_t room = o.output_limit > r.output.size() ? o.output_limit - r.output.size() : 0;
    r.output.append(buf, std::min(room, static_cast<size_t>(n)));
    if (static_cast<size_t>(n) > room) r.output_truncated = true;
  }
  close(fds[0]);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.timed_out) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  if (r.output_truncated)
    r.output += "\n[... output truncated: " + std::to_string(r.output_bytes) + " bytes in all]";
  return r;
}

}  // namespace gpulab
