// scan reference: the work-efficient hierarchical scan, in the bandwidth-friendly order.
//
// A tile is 4096 items: 256 threads x 16 consecutive items each. Three passes for any n:
//   1. tile_sums: each tile's total (coalesced loads, a warp-shuffle reduction);
//   2. the tile totals are scanned, exclusive, by this same function (recursion: 4096 tiles of
//      totals per level, so three levels cover 2^24 items and four 2^31);
//   3. tile_scan: each tile is scanned again and its carry (the scanned total of the tiles
//      before it) added: each thread scans its 16 items serially, and the 256 thread totals are
//      scanned with Brent-Kung in shared memory.
// Reducing first and scanning once (rather than scanning, writing, and adding the carries in a
// third pass) moves 12 bytes per int instead of 16; the scan is memory-bound, so that is the
// speed. The tile goes through shared memory so that global loads and stores are coalesced
// while each thread still owns consecutive items; one pad word per 32 keeps both of the tile's
// access patterns free of bank conflicts. The Brent-Kung tree over the 256 thread totals is not
// padded: its levels conflict 2- to 8-way, on 256 words beside the tile's 4096.
#include <cuda_runtime.h>

#include "scan.h"

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;

// ints are added as unsigned: the same bits, with wrap-around defined.
template <class T>
struct Acc {
  using type = T;
};
template <>
struct Acc<int> {
  using type = unsigned;
};

__device__ __forceinline__ int padded(int i) {
  return i + (i >> 5);
}

// Brent-Kung: the exclusive scan of the block's kThreads values v, one per thread, in s.
template <class A>
__device__ A brent_kung_exclusive(A* s, A v) {
  const int t = threadIdx.x;
  s[t] = v;
  __syncthreads();
  for (int stride = 1; stride < kThreads; stride *= 2) {  // up-sweep: a sum tree in place
    const int i = (t + 1) * 2 * stride - 1;
    if (i < kThreads) s[i] += s[i - stride];
    __syncthreads();
  }
  if (t == kThreads - 1) s[t] = A(0);  // clear the root
  __syncthreads();
  for (int stride = kThreads / 2; stride >= 1; stride /= 2) {  // down-sweep
    const int i = (t + 1) * 2 * stride - 1;
    if (i < kThreads) {
      const A left = s[i - stride];
      s[i - stride] = s[i];
      s[i] += left;
    }
    __syncthreads();
  }
  return s[t];
}

template <class T, class A>
__global__ void tile_sums(const T* __restrict__ in, int n, A* __restrict__ sums) {
  __shared__ A warp_sums[kThreads / 32];
  const size_t base = static_cast<size_t>(blockIdx.x) * kTile;
  A v = A(0);
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const size_t i = base + j * kThreads + threadIdx.x;
    if (i < static_cast<size_t>(n)) v += static_cast<A>(in[i]);
  }
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : A(0);
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) sums[blockIdx.x] = v;
  }
}

// Scans one tile per block into out, adding carries[blockIdx.x] when there are carries.
// In place (in == out) is safe: a block reads its whole tile before it writes.
template <class T, class A>
__global__ void tile_scan(const T* in, T* out, int n, const A* __restrict__ carries,
                          bool inclusive) {
  __shared__ A tile[kTile + kTile / 32];
  __shared__ A totals[kThreads];
  const int t = threadIdx.x;
  const size_t base = static_cast<size_t>(blockIdx.x) * kTile;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {  // coalesced: consecutive threads, consecutive items
    const int i = j * kThreads + t;
    tile[padded(i)] = base + i < static_cast<size_t>(n) ? static_cast<A>(in[base + i]) : A(0);
  }
  __syncthreads();
  A item[kItems];
  A sum = A(0);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {  // this thread's items, serially
    const A x = tile[padded(t * kItems + k)];
    item[k] = inclusive ? sum + x : sum;
    sum += x;
  }
  const A prefix = brent_kung_exclusive(totals, sum) + (carries ? carries[blockIdx.x] : A(0));
#pragma unroll
  for (int k = 0; k < kItems; ++k) tile[padded(t * kItems + k)] = prefix + item[k];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int i = j * kThreads + t;
    if (base + i < static_cast<size_t>(n)) out[base + i] = static_cast<T>(tile[padded(i)]);
  }
}

template <class T>
void scan_any(const T* in, T* out, int n, bool inclusive) {
  using A = typename Acc<T>::type;
  const int tiles = (n + kTile - 1) / kTile;
  if (tiles == 1) {
    tile_scan<T, A><<<1, kThreads>>>(in, out, n, nullptr, inclusive);
    return;
  }
  A* sums = nullptr;
  cudaMallocAsync(&sums, static_cast<size_t>(tiles) * sizeof(A), 0);
  tile_sums<T, A><<<tiles, kThreads>>>(in, n, sums);
  scan_any<A>(sums, sums, tiles, false);  // the carries: an exclusive scan of the tile totals
  tile_scan<T, A><<<tiles, kThreads>>>(in, out, n, sums, inclusive);
  cudaFreeAsync(sums, 0);
}

// Hillis-Steele, for the comparison: one item per thread, log2(1024) steps over a double
// buffer, each adding to every item. The hierarchy is the textbook one: scan each tile and write
// its total, scan the totals, add them back.
constexpr int kHsThreads = 1024;

__global__ void hs_tile_scan(const unsigned* in, unsigned* out, int n, unsigned* totals) {
  __shared__ unsigned buf[2][kHsThreads];
  const int t = threadIdx.x;
  const size_t g = static_cast<size_t>(blockIdx.x) * kHsThreads + t;
  int from = 0;
  buf[0][t] = g < static_cast<size_t>(n) ? in[g] : 0u;
  __syncthreads();
  for (int offset = 1; offset < kHsThreads; offset *= 2) {
    buf[1 - from][t] = buf[from][t] + (t >= offset ? buf[from][t - offset] : 0u);
    from = 1 - from;
    __syncthreads();
  }
  if (g < static_cast<size_t>(n)) out[g] = buf[from][t];
  if (totals && t == kHsThreads - 1) totals[blockIdx.x] = buf[from][t];
}

__global__ void hs_add_carries(unsigned* out, int n, const unsigned* scanned_totals) {
  const size_t g = static_cast<size_t>(blockIdx.x) * kHsThreads + threadIdx.x;
  if (blockIdx.x > 0 && g < static_cast<size_t>(n)) out[g] += scanned_totals[blockIdx.x - 1];
}

void hs_scan(const unsigned* in, unsigned* out, int n) {
  const int tiles = (n + kHsThreads - 1) / kHsThreads;
  if (tiles == 1) {
    hs_tile_scan<<<1, kHsThreads>>>(in, out, n, nullptr);
    return;
  }
  unsigned* totals = nullptr;
  cudaMallocAsync(&totals, static_cast<size_t>(tiles) * sizeof(unsigned), 0);
  hs_tile_scan<<<tiles, kHsThreads>>>(in, out, n, totals);
  hs_scan(totals, totals, tiles);  // inclusive, in place
  hs_add_carries<<<tiles, kHsThreads>>>(out, n, totals);
  cudaFreeAsync(totals, 0);
}

}  // namespace

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  scan_any(in, out, n, kind == ScanKind::inclusive);
}

void scan_float(const float* in, float* out, int n, ScanKind kind) {
  scan_any(in, out, n, kind == ScanKind::inclusive);
}

void scan_int_hillis_steele(const int* in, int* out, int n) {
  hs_scan(reinterpret_cast<const unsigned*>(in), reinterpret_cast<unsigned*>(out), n);
}
