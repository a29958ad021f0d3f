#include "student_call.h"

#include <cuda_runtime.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "backend_hooks.h"
#include "cuda_check.h"

namespace gpulab {

namespace {

// The first bytes of a function the harness times or talks with, as they were before any of the
// student's code ran.
struct GuardedCode {
  const char* name;
  const unsigned char* at;
  unsigned char bytes[32];
};

struct Boundary {
  bool prepared = false;
  std::vector<GuardedCode> code;
  bool check_threads = true;
  std::set<pid_t> threads;                                  // those that may outlive a call
  struct sigaction handlers[NSIG] = {};                     // what each signal did then
  std::vector<std::pair<int, struct sigaction>> set_aside;  // the student's, while ignored
};

Boundary& boundary() {
  static Boundary* b = new Boundary;  // never destroyed: the run ends with _exit
  return *b;
}

// The ids in /proc/self/task: every thread of this process, the exiting ones included.
std::set<pid_t> live_threads() {
  std::set<pid_t> ids;
  DIR* d = opendir("/proc/self/task");
  if (!d) throw std::runtime_error("cannot list this process's threads (/proc/self/task)");
  while (const dirent* e = readdir(d))
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
      ids.insert(static_cast<pid_t>(std::strtol(e->d_name, nullptr, 10)));
  closedir(d);
  return ids;
}

size_t started_and_alive() {
  size_t left = 0;
  for (const pid_t id : live_threads()) left += boundary().threads.count(id) == 0;
  return left;
}

// The signals this process catches now (a handler is installed): /proc/self/status's SigCgt,
// one read, rather than a system call per signal.
unsigned long long caught_signals() {
  const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot read this process's signal handlers");
  char buf[4096];
  std::string text;
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  ::close(fd);
  const size_t at = text.find("SigCgt:");
  if (at == std::string::npos) throw std::runtime_error("no SigCgt in /proc/self/status");
  return std::strtoull(text.c_str() + at + 7, nullptr, 16);
}

bool same_handler(const struct sigaction& a, const struct sigaction& b) {
  return a.sa_handler == b.sa_handler && a.sa_flags == b.sa_flags;
}

// Every handler installed since prepare_student_calls is ignored until given back.
void set_student_handlers_aside() {
  Boundary& b = boundary();
  const unsigned long long caught = caught_signals();
  for (int sig = 1; sig < NSIG && sig <= 64; ++sig) {
    if (!(caught >> (sig - 1) & 1) || sig == SIGKILL || sig == SIGSTOP) continue;
    struct sigaction now {};
    if (sigaction(sig, nullptr, &now) != 0 || same_handler(now, b.handlers[sig])) continue;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    if (sigaction(sig, &ignore, nullptr) == 0) b.set_aside.emplace_back(sig, now);
  }
}

// The functions whose code the harness's clocks and channel go through: a call that rewrote one
// (mprotect, then a jump to code of its own) would have the harness read a forged time.
void guard_code(Boundary& b, bool gpu) {
  b.code.clear();
  std::vector<std::pair<const char*, const void*>> fns = {
      {"clock_gettime", dlsym(RTLD_DEFAULT, "clock_gettime")},
      {"sendmsg", dlsym(RTLD_DEFAULT, "sendmsg")}};
#ifndef GPULAB_SIM_HARNESS
  if (gpu)
    for (const auto& f : std::initializer_list<std::pair<const char*, const void*>>{
             {"cudaEventRecord", reinterpret_cast<const void*>(&cudaEventRecord)},
             {"cudaEventSynchronize", reinterpret_cast<const void*>(&cudaEventSynchronize)},
             {"cudaEventElapsedTime", reinterpret_cast<const void*>(&cudaEventElapsedTime)},
             {"cudaDeviceSynchronize", reinterpret_cast<const void*>(&cudaDeviceSynchronize)},
             {"cudaMemcpy", reinterpret_cast<const void*>(&cudaMemcpy)}})
      fns.push_back(f);
#else
  (void)gpu;
#endif
  for (const auto& [name, at] : fns) {
    if (!at) continue;
    GuardedCode g{name, static_cast<const unsigned char*>(at), {}};
    std::memcpy(g.bytes, g.at, sizeof g.bytes);
    b.code.push_back(g);
  }
}

// Throws, naming the call and the function, where a guarded function's code changed.
void check_code(const Boundary& b, const char* what) {
  for (const GuardedCode& g : b.code)
    if (std::memcmp(g.bytes, g.at, sizeof g.bytes) != 0)
      throw std::runtime_error(std::string("your ") + what + " changed the code of " + g.name +
                               ", which gpulab's harness uses to time and hand over your "
                               "results: a submission may not rewrite the program it runs in.");
}

}  // namespace

void prepare_student_calls(bool gpu, bool check_threads) {
  Boundary& b = boundary();
  if (gpu) {
    if (backend_hooks().start_workers) backend_hooks().start_workers();  // the CPU backend's
#ifndef GPULAB_SIM_HARNESS
    // The CUDA context and its threads, and the thread that runs host functions (started at the
    // first one otherwise).
    GPULAB_CUDA(cudaFree(nullptr));
    GPULAB_CUDA(cudaLaunchHostFunc(
        nullptr, [](void*) {}, nullptr));
    GPULAB_CUDA(cudaDeviceSynchronize());
#endif
  }
  b.check_threads = check_threads;
  if (check_threads) guard_code(b, gpu);
  b.threads = live_threads();
  for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, nullptr, &b.handlers[sig]);
  b.prepared = true;
}

StudentCall::StudentCall(const char* what) : what_(what) {
  Boundary& b = boundary();
  for (const auto& [sig, handler] : b.set_aside) sigaction(sig, &handler, nullptr);
  b.set_aside.clear();
}

void StudentCall::returned() {
  Boundary& b = boundary();
  if (!b.prepared) throw std::logic_error("prepare_student_calls was not called");
  set_student_handlers_aside();
  check_code(b, what_);
  if (!b.check_threads) return;
  // A thread just joined may be listed a moment longer while the kernel finishes its exit: only
  // one still there after a few milliseconds is running.
  size_t left = started_and_alive();
  for (int i = 0; left > 0 && i < 20; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    left = started_and_alive();
  }
  if (left == 0) return;
  throw std::runtime_error(
      std::string("your ") + what_ + " returned while " + std::to_string(left) +
      " thread(s) it started were still running. A call must finish its work before it returns "
      "(join the threads you start): work left running would escape the clock.");
}

}  // namespace gpulab
