// Work the grader starts now and collects later, while it goes on with its own (the runs under
// compute-sanitizer of a dataset that passed, beside the part's next correctness runs:
// grade/sanitizer_runs.h). Tasks run on the machine's cores, at most one per core, in the order
// added; nothing here may be timed.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulab {

class BackgroundWork {
 public:
  // At most `threads` tasks at once; 0: the machine's cores.
  explicit BackgroundWork(size_t threads = 0);
  // Waits for every task added, without rethrowing (a task that threw is dropped here: the
  // caller is already leaving, most likely for a reason of its own).
  ~BackgroundWork();
  BackgroundWork(const BackgroundWork&) = delete;
  BackgroundWork& operator=(const BackgroundWork&) = delete;

  // Queues `task`; it starts as soon as a thread is free.
  void add(std::function<void()> task);
  // Whether a task is queued or running.
  bool busy() const;
  // Waits until every task added has ended, keeping what they threw for wait().
  void settle();
  // Waits until every task added has ended; then rethrows what the first of them (in the order
  // added) threw, Stopped and OutOfTime included, and forgets it.
  void wait();

 private:
  void work();

  size_t limit_;
  mutable std::mutex mutex_;
  std::condition_variable more_, idle_;
  std::deque<std::pair<size_t, std::function<void()>>> queue_;  // (its order, the task)
  std::vector<std::thread> threads_;
  std::vector<std::pair<size_t, std::exception_ptr>> errors_;
  size_t added_ = 0, running_ = 0;
  bool closing_ = false;
};

}  // namespace gpulab
