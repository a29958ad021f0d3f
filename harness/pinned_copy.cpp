#include "pinned_copy.h"

#include <unistd.h>

#include <cstdint>

#include "cuda_check.h"

namespace gpulab {

namespace {

// Below this a pageable copy costs less than locking the pages would.
constexpr size_t kLockFrom = size_t{64} << 20;

#ifndef GPULAB_SIM_HARNESS
// Page-locks the whole pages holding [at, at + bytes) while it lives; `locked` says whether the
// driver took them.
class LockedPages {
 public:
  LockedPages(const void* at, size_t bytes, unsigned flags) {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<uintptr_t>(at) & ~(page - 1);
    const auto end = (reinterpret_cast<uintptr_t>(at) + bytes + page - 1) & ~(page - 1);
    start_ = reinterpret_cast<void*>(first);
    if (cudaHostRegister(start_, end - first, flags) == cudaSuccess) {
      locked_ = true;
    } else {
      (void)cudaGetLastError();  // not sticky: the pageable copy below goes on
    }
  }
  LockedPages(const LockedPages&) = delete;
  LockedPages& operator=(const LockedPages&) = delete;
  ~LockedPages() {
    if (locked_) (void)cudaHostUnregister(start_);
  }

 private:
  void* start_ = nullptr;
  bool locked_ = false;
};
#endif

}  // namespace

void copy_to_device_pinned(void* device, const void* host, size_t bytes) {
  if (bytes == 0) return;
#ifndef GPULAB_SIM_HARNESS
  if (bytes >= kLockFrom) {
    // Read-only: a dataset's file is mapped without write access.
    const LockedPages lock(host, bytes, cudaHostRegisterReadOnly);
    GPULAB_CUDA(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
    return;
  }
#endif
  GPULAB_CUDA(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
}

void copy_to_host_pinned(void* host, const void* device, size_t bytes) {
  if (bytes == 0) return;
#ifndef GPULAB_SIM_HARNESS
  if (bytes >= kLockFrom) {
    const LockedPages lock(host, bytes, cudaHostRegisterDefault);
    GPULAB_CUDA(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
    return;
  }
#endif
  GPULAB_CUDA(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
}

}  // namespace gpulab
