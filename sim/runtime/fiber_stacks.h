// Fiber stacks for CUDA threads: mmap'd once per OS thread, with a guard page below each, and
// reused by every block after (launching many blocks costs no system calls).
#pragma once

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <vector>

namespace gpulab_sim::detail {

class StackPool {
 public:
  StackPool();
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  boost::context::stack_context take();
  void give(boost::context::stack_context s) { free_.push_back(s); }
  std::size_t size() const { return size_; }

 private:
  std::size_t size_;
  std::vector<boost::context::stack_context> free_;
  std::vector<boost::context::stack_context> all_;
};

}  // namespace gpulab_sim::detail
