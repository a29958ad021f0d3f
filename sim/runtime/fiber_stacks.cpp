#include "fiber_stacks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

#include "settings.h"

namespace gpulab_sim::detail {

StackPool::StackPool() {
  // GPULAB_SIM_STACK_KB, 128 KiB by default: room for local arrays; only the pages a thread touches
  // are committed.
  size_ = settings().stack_kb * 1024;
}

StackPool::~StackPool() {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (auto& s : all_) munmap(static_cast<char*>(s.sp) - s.size - page, s.size + page);
}

boost::context::stack_context StackPool::take() {
  if (!free_.empty()) {
    auto s = free_.back();
    free_.pop_back();
    return s;
  }
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, size_ + page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  mprotect(m, page, PROT_NONE);  // a stack overflow faults instead of corrupting memory
  boost::context::stack_context s;
  s.size = size_;
  s.sp = static_cast<char*>(m) + page + size_;
  all_.push_back(s);
  return s;
}

}  // namespace gpulab_sim::detail
