// scan_float with decoupled look-back (the single-pass order of CUB's scan): each block takes the
// next tile by an atomic ticket, scans it (4 serial items per thread, warp shuffles across the
// threads) and publishes its aggregate; then one thread walks back over the predecessors, adding
// each published aggregate on the left of its running sum, until it finds a published inclusive
// prefix; it publishes its own inclusive prefix and the block writes its items with the carry.
//
// Forward progress: tiles are numbered in the order blocks start (the ticket), not by
// blockIdx, so every tile waited for belongs to a block that is already running. The waits read
// through volatile pointers, and each tile writes a value, then a fence, then its status.
#include <cuda_runtime.h>

#include "scan.h"

namespace lookback_scan {

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

// A tile's status: nothing yet, its aggregate published, or its inclusive prefix published.
enum Status : int { kNone = 0, kAggregate = 1, kPrefix = 2 };

struct Tiles {
  float* aggregate;  // [tiles]
  float* prefix;     // [tiles]: inclusive
  int* status;       // [tiles]
  unsigned* ticket;  // the next tile to hand out
};

// Thread 0 of tile t > 0: the sum of all tiles before t.
__device__ float look_back(const Tiles& c, unsigned t) {
  volatile int* status = c.status;
  volatile float* aggregate = c.aggregate;
  volatile float* prefix = c.prefix;
  float acc = 0.0f;
  bool any = false;
  for (unsigned j = t - 1;; --j) {
    int s;
    while ((s = status[j]) == kNone) {
    }
    __threadfence();
    if (s == kPrefix) return any ? prefix[j] + acc : prefix[j];
    acc = any ? aggregate[j] + acc : aggregate[j];  // older tiles on the left
    any = true;
  }
}

__global__ void lookback_tile_scan(const float* in, float* out, int n, Tiles c, bool inclusive) {
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
    volatile int* status = c.status;
    volatile float* prefix = c.prefix;
    float before = 0.0f;
    if (tile > 0) {
      volatile float* published = c.aggregate;
      published[tile] = aggregate;
      __threadfence();
      status[tile] = kAggregate;
      before = look_back(c, tile);
    }
    prefix[tile] = tile > 0 ? before + aggregate : aggregate;
    __threadfence();
    status[tile] = kPrefix;
    carry = before;
  }
  __syncthreads();
  const float p = tile > 0 ? carry + thread_prefix : thread_prefix;
  for (int k = 0; k < kItems; ++k)
    if (first + k < static_cast<size_t>(n)) out[first + k] = p + item[k];
}

void scan(const float* in, float* out, int n, bool inclusive) {
  const int tiles = (n + kTile - 1) / kTile;
  const size_t floats = static_cast<size_t>(tiles) * sizeof(float);
  char* scratch = nullptr;
  cudaMallocAsync(&scratch, 2 * floats + static_cast<size_t>(tiles) * sizeof(int) + sizeof(int), 0);
  Tiles c{
      reinterpret_cast<float*>(scratch), reinterpret_cast<float*>(scratch + floats),
      reinterpret_cast<int*>(scratch + 2 * floats),
      reinterpret_cast<unsigned*>(scratch + 2 * floats + static_cast<size_t>(tiles) * sizeof(int))};
  cudaMemsetAsync(c.status, 0, static_cast<size_t>(tiles) * sizeof(int) + sizeof(int), 0);
  lookback_tile_scan<<<tiles, kThreads>>>(in, out, n, c, inclusive);
  cudaFreeAsync(scratch, 0);
}

}  // namespace lookback_scan

void scan_float(const float* in, float* out, int n, ScanKind kind) {
  lookback_scan::scan(in, out, n, kind == ScanKind::inclusive);
}
