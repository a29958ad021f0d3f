#include <cstdint>

#include "cuda_check.h"
#include "device_difference.h"

namespace gpulab {

namespace {

constexpr unsigned long long kNone = ~0ull;

// Each thread compares words (and the last block's first thread the bytes past the last whole
// word); the least differing byte offset wins by atomicMin. The arrays start 256-byte aligned
// (cudaMalloc's alignment, and an input set moves by 256 bytes: input_sets.h).
__global__ void first_difference_kernel(const unsigned char* a, const unsigned char* b,
                                        size_t bytes, unsigned long long* first) {
  const size_t words = bytes / 4;
  const auto* wa = reinterpret_cast<const uint32_t*>(a);
  const auto* wb = reinterpret_cast<const uint32_t*>(b);
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < words; i += stride) {
    const uint32_t x = wa[i] ^ wb[i];
    if (x) atomicMin(first, 4 * i + (__ffs(static_cast<int>(x)) - 1) / 8);  // little-endian
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
    for (size_t i = 4 * words; i < bytes; ++i)
      if (a[i] != b[i]) {
        atomicMin(first, static_cast<unsigned long long>(i));
        break;
      }
}

}  // namespace

long long first_device_difference(const void* a, const void* b, size_t bytes) {
  if (bytes == 0) return -1;
  static unsigned long long* const first = [] {  // the process's one, for as long as it runs
    void* p = nullptr;
    GPULAB_CUDA(cudaMalloc(&p, sizeof(unsigned long long)));
    return static_cast<unsigned long long*>(p);
  }();
  GPULAB_CUDA(cudaMemcpy(first, &kNone, sizeof kNone, cudaMemcpyHostToDevice));
  constexpr unsigned kThreads = 256;
  const size_t blocks_needed = (bytes / 4 + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(blocks_needed < 4096 ? blocks_needed + 1 : 4096);
  first_difference_kernel<<<blocks, kThreads>>>(static_cast<const unsigned char*>(a),
                                                static_cast<const unsigned char*>(b), bytes, first);
  GPULAB_CUDA(cudaGetLastError());
  unsigned long long at = kNone;
  GPULAB_CUDA(cudaMemcpy(&at, first, sizeof at, cudaMemcpyDeviceToHost));
  return at == kNone ? -1 : static_cast<long long>(at);
}

}  // namespace gpulab
