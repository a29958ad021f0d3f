// scan_float as a chained single-pass scan (StreamScan): each block takes the next tile by an
// atomic ticket, scans it (4 serial items per thread, warp shuffles across the threads), waits
// for the tile before it to publish its inclusive prefix, publishes its own, and writes its
// items with that carry. The carries form one chain of n / 1024 adds, the longest of the honest
// orders the float tolerance must accept (docs/PERF.md, "Scan tolerance calibration").
//
// Forward progress: tiles are numbered in the order blocks start (the ticket), not by
// blockIdx, so the tile a block waits for belongs to a block that is already running. The wait
// reads through volatile pointers, and each tile writes its prefix, then a fence, then its flag.
#include <cuda_runtime.h>

#include "scan.h"

namespace chained_scan {

constexpr int kThreads = 256;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

// The exclusive scan of the block's per-thread values; `aggregate` receives the block's total.
__device__ float block_exclusive(float v, float* warp_sums, float* aggregate) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int o = 1; o < 32; o *= 2) {
    const float u = __shfl_up_sync(kFull, v, o);
    if (lane >= o) v += u;
  }
  float before = __shfl_up_sync(kFull, v, 1);
  if (lane == 0) before = 0.0f;
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = lane < kWarps ? warp_sums[lane] : 0.0f;
    for (int o = 1; o < kWarps; o *= 2) {
      const float u = __shfl_up_sync(kFull, w, o);
      if (lane >= o) w += u;
    }
    if (lane < kWarps) warp_sums[lane] = w;  // inclusive over the warps
  }
  __syncthreads();
  *aggregate = warp_sums[kWarps - 1];
  return warp > 0 ? warp_sums[warp - 1] + before : before;
}

struct Chain {
  float* prefix;     // [tiles]: each tile's inclusive prefix
  int* ready;        // [tiles]: 1 once prefix[t] is visible
  unsigned* ticket;  // the next tile to hand out
};

__global__ void chained_tile_scan(const float* in, float* out, int n, Chain c, bool inclusive) {
  __shared__ unsigned tile;
  __shared__ float warp_sums[kWarps];
  __shared__ float carry;
  if (threadIdx.x == 0) tile = atomicAdd(c.ticket, 1u);
  __syncthreads();
  const size_t first = static_cast<size_t>(tile) * kTile + threadIdx.x * kItems;
  float item[kItems];
  float sum = 0.0f;
  for (int k = 0; k < kItems; ++k) {
    const float x = first + k < static_cast<size_t>(n) ? in[first + k] : 0.0f;
    item[k] = inclusive ? sum + x : sum;
    sum += x;
  }
  float aggregate;
  const float thread_prefix = block_exclusive(sum, warp_sums, &aggregate);
  if (threadIdx.x == 0) {
    volatile int* ready = c.ready;
    volatile float* prefix = c.prefix;
    float before = 0.0f;
    if (tile > 0) {
      while (ready[tile - 1] == 0) {
      }
      __threadfence();
      before = prefix[tile - 1];
    }
    prefix[tile] = tile > 0 ? before + aggregate : aggregate;
    __threadfence();
    ready[tile] = 1;
    carry = before;
  }
  __syncthreads();
  const float p = tile > 0 ? carry + thread_prefix : thread_prefix;
  for (int k = 0; k < kItems; ++k)
    if (first + k < static_cast<size_t>(n)) out[first + k] = p + item[k];
}

void scan(const float* in, float* out, int n, bool inclusive) {
  const int tiles = (n + kTile - 1) / kTile;
  char* scratch = nullptr;
  const size_t bytes = static_cast<size_t>(tiles) * (sizeof(float) + sizeof(int)) + sizeof(int);
  cudaMallocAsync(&scratch, bytes, 0);
  Chain c{reinterpret_cast<float*>(scratch),
          reinterpret_cast<int*>(scratch + static_cast<size_t>(tiles) * sizeof(float)),
          reinterpret_cast<unsigned*>(scratch +
                                      static_cast<size_t>(tiles) * (sizeof(float) + sizeof(int)))};
  cudaMemsetAsync(c.ready, 0, static_cast<size_t>(tiles) * sizeof(int) + sizeof(int), 0);
  chained_tile_scan<<<tiles, kThreads>>>(in, out, n, c, inclusive);
  cudaFreeAsync(scratch, 0);
}

}  // namespace chained_scan

void scan_float(const float* in, float* out, int n, ScanKind kind) {
  chained_scan::scan(in, out, n, kind == ScanKind::inclusive);
}
