#include "os/stop_signals.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include "files/temporaries.h"
#include "os/exit_status.h"
#include "os/process.h"

namespace gpulab {

namespace {

std::atomic<int> requested{0};
// Held by whoever writes the final report: the main thread (finishing) or the waiting thread
// (the last words); the other then never writes.
std::mutex final_write;

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

void stop_on_signals(double grace_s, std::function<void(int)> last_words) {
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set, grace_s, last_words = std::move(last_words)] {
    int signal = 0;
    while (sigwait(&set, &signal) != 0) {
    }
    requested = signal;
    // A second signal, or the grace period over: the grader did not come back in time.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_s);
    for (;;) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      const timespec wait{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
      if (sigtimedwait(&set, nullptr, &wait) > 0) break;
    }
    final_write.lock();  // held for good: the process ends below
    kill_running_processes();
    remove_temporaries();  // no half-made dataset or report stays behind (temporaries.h)
    if (last_words) last_words(signal);
    _exit(kExitStopped);
  }).detach();
}

void stop_at_once_on_signals(const std::string& command, const std::string& after) {
  const bool tty = isatty(1) == 1;
  stop_on_signals(0, [tty, command, after](int signal) {
    if (tty) std::cout << "\n" << std::flush;
    std::cerr << "gpulab " << command << ": stopped by " << signal_name(signal) << "; " << after
              << "\n";
  });
}

int stop_signal() {
  return requested.load();
}

void throw_if_stopped() {
  if (const int signal = requested.load()) throw Stopped{signal};
}

void finishing() {
  final_write.lock();  // released when the process exits
}

std::string signal_name(int signal) {
  if (const char* abbrev = sigabbrev_np(signal)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

void unblock_stop_signals() {
  const sigset_t set = stop_set();
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace gpulab
