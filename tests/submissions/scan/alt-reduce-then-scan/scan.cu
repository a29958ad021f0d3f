// scan_float as reduce-then-scan over a fixed grid: the array is cut into at most kBlocks spans
// of whole tiles, one block each. Pass 1 sums each span (strided loads, warp shuffles); pass 2,
// one thread, scans the span totals serially; pass 3 scans each span tile by tile (4 serial
// items per thread, Brent-Kung across the threads), carrying a running sum from tile to tile:
// within a span the carries form a chain of up to n / (kBlocks * kTile) adds.
#include <cuda_runtime.h>

#include "scan.h"

namespace span_scan {

constexpr int kThreads = 256;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;
constexpr int kBlocks = 512;
constexpr unsigned kFull = 0xffffffffu;

// The end of a range that would run past n.
__device__ size_t end_of(size_t end, int n) {
  return end < static_cast<size_t>(n) ? end : static_cast<size_t>(n);
}

__global__ void span_totals(const float* in, int n, size_t span, float* totals) {
  __shared__ float warp_sums[kThreads / 32];
  const size_t begin = blockIdx.x * span, end = end_of(begin + span, n);
  float v = 0.0f;
  for (size_t i = begin + threadIdx.x; i < end; i += kThreads) v += in[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(kFull, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(kFull, v, o);
    if (threadIdx.x == 0) totals[blockIdx.x] = v;
  }
}

// One thread: the exclusive scan of the span totals, in place.
__global__ void scan_totals(float* totals, int count) {
  float sum = 0.0f;
  for (int b = 0; b < count; ++b) {
    const float x = totals[b];
    totals[b] = sum;
    sum += x;
  }
}

// The exclusive Brent-Kung scan of one value per thread; returns the block's total too.
__device__ float brent_kung_exclusive(float* s, float v, float* total) {
  const int t = threadIdx.x;
  s[t] = v;
  __syncthreads();
  for (int stride = 1; stride < kThreads; stride *= 2) {
    const int i = (t + 1) * 2 * stride - 1;
    if (i < kThreads) s[i] += s[i - stride];
    __syncthreads();
  }
  *total = s[kThreads - 1];
  __syncthreads();
  if (t == kThreads - 1) s[t] = 0.0f;
  __syncthreads();
  for (int stride = kThreads / 2; stride >= 1; stride /= 2) {
    const int i = (t + 1) * 2 * stride - 1;
    if (i < kThreads) {
      const float left = s[i - stride];
      s[i - stride] = s[i];
      s[i] += left;
    }
    __syncthreads();
  }
  const float r = s[t];
  __syncthreads();  // s is reused by the next tile
  return r;
}

__global__ void scan_spans(const float* in, float* out, int n, size_t span, const float* carries,
                           bool inclusive) {
  __shared__ float s[kThreads];
  const size_t begin = blockIdx.x * span, end = end_of(begin + span, n);
  float carry = carries[blockIdx.x];
  for (size_t tile = begin; tile < end; tile += kTile) {
    const size_t first = tile + threadIdx.x * kItems;
    float item[kItems];
    float sum = 0.0f;
    for (int k = 0; k < kItems; ++k) {
      const float x = first + k < end ? in[first + k] : 0.0f;
      item[k] = inclusive ? sum + x : sum;
      sum += x;
    }
    float total;
    const float prefix = carry + brent_kung_exclusive(s, sum, &total);
    for (int k = 0; k < kItems; ++k)
      if (first + k < end) out[first + k] = prefix + item[k];
    carry += total;
  }
}

void scan(const float* in, float* out, int n, bool inclusive) {
  const size_t tiles = (static_cast<size_t>(n) + kTile - 1) / kTile;
  const size_t span = (tiles + kBlocks - 1) / kBlocks * kTile;
  const int blocks = static_cast<int>((static_cast<size_t>(n) + span - 1) / span);
  float* totals = nullptr;
  cudaMallocAsync(&totals, static_cast<size_t>(blocks) * sizeof(float), 0);
  span_totals<<<blocks, kThreads>>>(in, n, span, totals);
  scan_totals<<<1, 1>>>(totals, blocks);
  scan_spans<<<blocks, kThreads>>>(in, out, n, span, totals, inclusive);
  cudaFreeAsync(totals, 0);
}

}  // namespace span_scan

void scan_float(const float* in, float* out, int n, ScanKind kind) {
  span_scan::scan(in, out, n, kind == ScanKind::inclusive);
}
