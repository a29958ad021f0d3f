// A correct histogram lab of another shape than the reference's, written as a student might:
//  - reduce: one kernel; each thread sums a grid-stride share of plain int loads, a warp
//    combines its sums with a butterfly (__shfl_xor_sync), the block its warps' sums, and
//    thread 0 adds the block's sum into `out` (zeroed first) with one atomicAdd;
//  - global: a zeroing kernel of its own, then one atomicAdd per key;
//  - private: one sub-histogram per warp in shared memory while the warps' copies fit (fewer
//    copies, down to one per block, as bins grow), summed over the copies before the one global
//    atomicAdd per bin; past 48 KB, the global kernel;
//  - sort: thrust::sort of a copy, then one thread per bin finds where its run starts with a
//    binary search (lower_bound) in the sorted keys, so an empty bin's start is the next run's
//    and its count comes out 0; scratch allocated and freed in every call.
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include "histogram.h"

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kMostBlocks = 1024;
// A private histogram costs its zeroing and its merge: each thread counts at least this many
// keys so that the per-key work pays for them.
constexpr int kKeysPerThread = 16;
constexpr int kSharedInts = 48 * 1024 / static_cast<int>(sizeof(int));

int grid_for(long long items) {
  const long long blocks = (items + kBlock - 1) / kBlock;
  return static_cast<int>(blocks < 1 ? 1 : (blocks > kMostBlocks ? kMostBlocks : blocks));
}

__device__ unsigned butterfly_sum(unsigned v) {
  for (int lanes = 1; lanes < 32; lanes *= 2) v += __shfl_xor_sync(0xffffffffu, v, lanes);
  return v;
}

__global__ void sum_into(const int* in, int n, unsigned* out) {
  __shared__ unsigned per_warp[kWarps];
  unsigned v = 0;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock)
    v += static_cast<unsigned>(in[i]);
  v = butterfly_sum(v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) per_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = butterfly_sum(lane < kWarps ? per_warp[lane] : 0u);
    if (lane == 0) atomicAdd(out, v);
  }
}

__global__ void fill_zero(int* a, int count) {
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < count; i += gridDim.x * kBlock) a[i] = 0;
}

__global__ void count_each(const int* keys, int n, int* counts) {
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock)
    atomicAdd(&counts[keys[i]], 1);
}

// `copies` sub-histograms of `bins` ints each; warp w adds to copy w % copies.
__global__ void count_per_warp(const int* keys, int n, int bins, int copies, int* counts) {
  extern __shared__ int sub[];
  for (int k = threadIdx.x; k < copies * bins; k += kBlock) sub[k] = 0;
  __syncthreads();
  int* mine = sub + (threadIdx.x / 32) % copies * bins;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock)
    atomicAdd(&mine[keys[i]], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += kBlock) {
    int total = 0;
    for (int c = 0; c < copies; ++c) total += sub[c * bins + b];
    if (total > 0) atomicAdd(&counts[b], total);
  }
}

// The first index of `sorted` whose key is not below `key` (n when every key is below it).
__device__ int lower_bound(const int* sorted, int n, int key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// starts[b] for b = 0 .. bins: where bin b's keys would start in `sorted`.
__global__ void find_starts(const int* sorted, int n, int bins, int* starts) {
  for (int b = blockIdx.x * kBlock + threadIdx.x; b <= bins; b += gridDim.x * kBlock)
    starts[b] = lower_bound(sorted, n, b);
}

__global__ void starts_to_counts(const int* starts, int bins, int* counts) {
  for (int b = blockIdx.x * kBlock + threadIdx.x; b < bins; b += gridDim.x * kBlock)
    counts[b] = starts[b + 1] - starts[b];
}

}  // namespace

void reduce_sum(const int* in, int n, int* out) {
  cudaMemsetAsync(out, 0, sizeof(int));
  if (n > 0) sum_into<<<grid_for(n), kBlock>>>(in, n, reinterpret_cast<unsigned*>(out));
}

void histogram_global(const int* keys, int n, int bins, int* counts) {
  fill_zero<<<grid_for(bins), kBlock>>>(counts, bins);
  if (n > 0) count_each<<<grid_for(n), kBlock>>>(keys, n, counts);
}

void histogram_private(const int* keys, int n, int bins, int* counts) {
  if (bins > kSharedInts) {
    histogram_global(keys, n, bins, counts);
    return;
  }
  const int fit = kSharedInts / bins;
  const int copies = fit < kWarps ? fit : kWarps;
  fill_zero<<<grid_for(bins), kBlock>>>(counts, bins);
  if (n > 0)
    count_per_warp<<<grid_for((n + kKeysPerThread - 1LL) / kKeysPerThread), kBlock,
                     static_cast<size_t>(copies) * bins * sizeof(int)>>>(keys, n, bins, copies,
                                                                         counts);
}

void histogram_sort(const int* keys, int n, int bins, int* counts) {
  int *sorted = nullptr, *starts = nullptr;
  cudaMalloc(&sorted, (static_cast<size_t>(n) + 1) * sizeof(int));
  cudaMalloc(&starts, (static_cast<size_t>(bins) + 1) * sizeof(int));
  if (n > 0) {
    cudaMemcpy(sorted, keys, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToDevice);
    thrust::sort(thrust::device, sorted, sorted + n);
  }
  find_starts<<<grid_for(bins + 1LL), kBlock>>>(sorted, n, bins, starts);
  starts_to_counts<<<grid_for(bins), kBlock>>>(starts, bins, counts);
  cudaFree(sorted);
  cudaFree(starts);
}
