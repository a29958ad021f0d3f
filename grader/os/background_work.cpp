#include "os/background_work.h"

#include <algorithm>
#include <utility>

namespace gpulab {

BackgroundWork::BackgroundWork(size_t threads)
    : limit_(threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

BackgroundWork::~BackgroundWork() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
    closing_ = true;
  }
  more_.notify_all();
  for (auto& t : threads_) t.join();
}

void BackgroundWork::add(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.emplace_back(added_++, std::move(task));
    // A thread of its own while there are fewer than the limit and none is free.
    if (threads_.size() < limit_ && threads_.size() < running_ + queue_.size())
      threads_.emplace_back([this] { work(); });
  }
  more_.notify_one();
}

bool BackgroundWork::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !queue_.empty() || running_ > 0;
}

void BackgroundWork::settle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
}

void BackgroundWork::wait() {
  std::exception_ptr first;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
    if (errors_.empty()) return;
    first = std::min_element(errors_.begin(), errors_.end(), [](const auto& a, const auto& b) {
              return a.first < b.first;
            })->second;
    errors_.clear();
  }
  std::rethrow_exception(first);
}

void BackgroundWork::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    more_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing, and nothing left
    auto [order, task] = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    std::exception_ptr error;
    try {
      task();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error) errors_.emplace_back(order, error);
    --running_;
    if (queue_.empty() && running_ == 0) idle_.notify_all();
  }
}

}  // namespace gpulab
