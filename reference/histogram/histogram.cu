// histogram's reference: a tree reduction near the copy bandwidth, and the histogram three ways.
//
// reduce_sum: one pass over the input by a grid that just fills the GPU (8 blocks of 256 per
// SM). Each thread adds 16-byte loads (int4) in a grid-stride loop, four loads in flight per
// iteration, in unsigned int (wrap-around is defined); a warp combines its 32 sums with
// shuffles; a block its 8 warps' through shared memory; the last block to finish adds the
// blocks' sums into out[0]. So the input is read once, in one launch, and the sum is the same
// bits in any order.
//
// histogram_private: a histogram per block in shared memory while bins fit in 48 KB (12 288
// bins); each block adds its grid-stride share of the keys with shared atomics, then adds its
// non-zero bins to the global histogram, one global atomic per bin and block. Beyond 48 KB it
// is histogram_global's kernel.
//
// histogram_sort: sort a copy of the keys (thrust::sort), mark where each run of equal keys
// starts and ends, and take each bin's count as end - start; both arrays are zeroed first, so
// a bin with no run (an empty bin) counts 0.
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cstdint>

#include "histogram.h"

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;  // 2048 threads: a full SM
constexpr int kSharedBins = 48 * 1024 / static_cast<int>(sizeof(int));

int fill_blocks() {
  static int sms = 0;
  if (sms == 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms < 1) sms = 1;
  }
  return sms * kBlocksPerSm;
}

// Grows a device array kept between calls (statics: no cudaMalloc in timed runs).
template <class T>
T* scratch(T*& ptr, size_t& have, size_t need) {
  if (need > have) {
    if (ptr) cudaFree(ptr);
    cudaMalloc(&ptr, need * sizeof(T));
    have = need;
  }
  return ptr;
}

__device__ unsigned warp_sum(unsigned v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The block's sum, valid in thread 0.
__device__ unsigned block_sum(unsigned v) {
  __shared__ unsigned warps[kThreads / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = warp_sum(threadIdx.x < kThreads / 32 ? warps[threadIdx.x] : 0u);
  return v;
}

// Thread i's share of `in`: the int4s i, i + stride, ... (four loads in flight per iteration),
// then one of the last n % 4 values for the first threads of the grid.
__device__ unsigned thread_sum(const int* in, int n) {
  unsigned v = 0;
  const int stride = gridDim.x * kThreads;
  const int first = blockIdx.x * kThreads + threadIdx.x;
  int i = first;
  if (reinterpret_cast<uintptr_t>(in) % sizeof(int4) != 0) {
    for (; i < n; i += stride) v += unsigned(in[i]);
    return v;
  }
  const int4* in4 = reinterpret_cast<const int4*>(in);
  const int n4 = n / 4;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    int4 a[4];
    for (int k = 0; k < 4; ++k) a[k] = in4[i + k * stride];
    for (int k = 0; k < 4; ++k)
      v += unsigned(a[k].x) + unsigned(a[k].y) + unsigned(a[k].z) + unsigned(a[k].w);
  }
  for (; i < n4; i += stride) {
    const int4 a = in4[i];
    v += unsigned(a.x) + unsigned(a.y) + unsigned(a.z) + unsigned(a.w);
  }
  if (4 * n4 + first < n) v += unsigned(in[4 * n4 + first]);
  return v;
}

__device__ unsigned blocks_done = 0;  // back to 0 at the end of every launch

// One launch: each block writes its sum; the block that finishes last (it sees blocks_done reach
// gridDim.x - 1, after every other block's sum was made visible by __threadfence) adds them up.
// That saves a second launch, about 1% of a sum of 2^27 values.
__global__ void sum_all(const int* in, int n, unsigned* block_sums, int* out) {
  __shared__ bool last;
  const unsigned v = block_sum(thread_sum(in, n));
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  unsigned t = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kThreads)
    t += reinterpret_cast<volatile unsigned*>(block_sums)[b];
  t = block_sum(t);
  if (threadIdx.x == 0) {
    out[0] = static_cast<int>(t);
    blocks_done = 0;
  }
}

__global__ void count_global(const int* keys, int n, int* counts) {
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < n; i += gridDim.x * kThreads)
    atomicAdd(&counts[keys[i]], 1);
}

__global__ void count_private(const int* keys, int n, int bins, int* counts) {
  extern __shared__ int hist[];
  for (int b = threadIdx.x; b < bins; b += kThreads) hist[b] = 0;
  __syncthreads();
  const int stride = gridDim.x * kThreads;
  int i = blockIdx.x * kThreads + threadIdx.x;
  if (reinterpret_cast<uintptr_t>(keys) % sizeof(int4) == 0) {
    const int4* keys4 = reinterpret_cast<const int4*>(keys);
    for (; i < n / 4; i += stride) {
      const int4 k = keys4[i];
      atomicAdd(&hist[k.x], 1);
      atomicAdd(&hist[k.y], 1);
      atomicAdd(&hist[k.z], 1);
      atomicAdd(&hist[k.w], 1);
    }
    const int tail = 4 * (n / 4) + blockIdx.x * kThreads + threadIdx.x;
    if (tail < n) atomicAdd(&hist[keys[tail]], 1);
  } else {
    for (; i < n; i += stride) atomicAdd(&hist[keys[i]], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += kThreads)
    if (hist[b] != 0) atomicAdd(&counts[b], hist[b]);
}

// Each run of equal keys in `sorted` records its first index and one past its last.
__global__ void mark_runs(const int* sorted, int n, int* start, int* end) {
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < n; i += gridDim.x * kThreads) {
    const int key = sorted[i];
    if (i == 0 || sorted[i - 1] != key) start[key] = i;
    if (i == n - 1 || sorted[i + 1] != key) end[key] = i + 1;
  }
}

__global__ void runs_to_counts(const int* start, const int* end, int bins, int* counts) {
  for (int b = blockIdx.x * kThreads + threadIdx.x; b < bins; b += gridDim.x * kThreads)
    counts[b] = end[b] - start[b];
}

int blocks_for(long long items) {
  const long long need = (items + kThreads - 1) / kThreads;
  const long long most = fill_blocks();
  return static_cast<int>(need < 1 ? 1 : (need < most ? need : most));
}

}  // namespace

void reduce_sum(const int* in, int n, int* out) {
  static unsigned* sums = nullptr;
  static size_t have = 0;
  const int blocks = blocks_for(n / 4 + 1);
  sum_all<<<blocks, kThreads>>>(in, n, scratch(sums, have, static_cast<size_t>(blocks)), out);
}

void histogram_global(const int* keys, int n, int bins, int* counts) {
  cudaMemsetAsync(counts, 0, static_cast<size_t>(bins) * sizeof(int));
  if (n > 0) count_global<<<blocks_for(n), kThreads>>>(keys, n, counts);
}

void histogram_private(const int* keys, int n, int bins, int* counts) {
  if (bins > kSharedBins) {
    histogram_global(keys, n, bins, counts);
    return;
  }
  cudaMemsetAsync(counts, 0, static_cast<size_t>(bins) * sizeof(int));
  if (n > 0)
    count_private<<<blocks_for(n / 4 + 1), kThreads, static_cast<size_t>(bins) * sizeof(int)>>>(
        keys, n, bins, counts);
}

void histogram_sort(const int* keys, int n, int bins, int* counts) {
  static int *sorted = nullptr, *runs = nullptr;
  static size_t have_sorted = 0, have_runs = 0;
  int* start = scratch(runs, have_runs, 2 * static_cast<size_t>(bins));
  int* end = start + bins;
  cudaMemsetAsync(start, 0, 2 * static_cast<size_t>(bins) * sizeof(int));
  if (n > 0) {
    int* s = scratch(sorted, have_sorted, static_cast<size_t>(n));
    cudaMemcpyAsync(s, keys, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToDevice);
    thrust::sort(thrust::device, s, s + n);
    mark_runs<<<blocks_for(n), kThreads>>>(s, n, start, end);
  }
  runs_to_counts<<<blocks_for(bins), kThreads>>>(start, end, bins, counts);
}
