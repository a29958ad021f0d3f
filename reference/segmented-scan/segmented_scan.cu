// segmented-scan reference: the hierarchical segmented scan over head flags, reduce-then-scan,
// and CSR SpMV built from the same machinery.
//
// The segmented operator on (flag, sum) pairs, a the left operand and b the right one:
//     (fa, sa) op (fb, sb) = (fa | fb,  fb ? sb : sa + sb)
// It is associative, so any tree of it scans; the flag says "a segment starts in here", and a
// pair's sum is the sum since its last head (or all of it, without one).
//
// The scan, for any n, in three passes over tiles of kTile = 256 threads x 16 elements:
//  1. reduce_tiles: each block reduces its tile to one pair (any head, sum since its last head).
//     Reads 5 bytes per element.
//  2. scan_carries: one block scans the tiles' pairs (an exclusive segmented scan), giving each
//     tile the sum of the segment that is open when it begins: its carry-in.
//  3. scan_tiles: each block loads its tile again, each thread scans its 16 elements to a pair,
//     the block runs the Brent-Kung exclusive segmented scan over the 256 pairs in shared memory
//     (flags OR-ed in the up-sweep, the original flags consulted in the down-sweep, the root
//     set to the tile's carry-in), and each thread rescans its elements from what enters it.
//     Reads 5 bytes and writes 4 per element.
// 14 bytes per element in all (reduce-then-scan: reading the input twice costs less than
// writing and re-reading partial results). Loads and stores are 16-byte vectors: a thread's 16
// elements are 4 float4 and one uint4 of flags.
//
// SpMV, over tiles of kTile nonzeros: each thread takes 16 consecutive nonzeros, gathers x,
// finds the row of its first nonzero by binary search (between the first rows of its tile and
// the next, from tile_first_row), and walks the rows: a head flag where a row starts, a
// segmented scan of the products, and each row's sum at its last element. Rows that start and
// end inside one thread are written at once; the others get what enters the thread from the same
// Brent-Kung block scan; the one row per tile that began in an earlier tile is finished by
// scan_carries, which scans the tiles' pairs as for the scan. Empty rows have no elements: a
// kernel of their own writes their 0. Values and columns are read once: ~8 bytes per nonzero.
#include <cuda_runtime.h>

#include <cstdint>

#include "segmented_scan.h"

namespace {

constexpr int kThreads = 256;  // per block of the tile kernels
constexpr int kItems = 16;     // consecutive elements per thread
constexpr int kTile = kThreads * kItems;
constexpr int kCarryThreads = 1024;  // the one block of scan_carries
constexpr int kWarps = kThreads / 32;
// At least 6 blocks per SM (at most 42 registers a thread; ptxas needs 32 to 40, no spills): the
// tile kernels wait at barriers, and other blocks' loads keep the memory busy meanwhile.
constexpr int kMinBlocks = 6;

// Shared-memory index of tree node i, padded by one word per 32 against bank conflicts.
__device__ __forceinline__ int pad(int i) {
  return i + (i >> 5);
}

// Which of the four bytes of w are nonzero, as bits 0-3.
__device__ __forceinline__ unsigned nonzero_bytes(unsigned w) {
  return ((w & 0xffu) != 0) | ((w & 0xff00u) != 0) << 1 | ((w & 0xff0000u) != 0) << 2 |
         ((w & 0xff000000u) != 0) << 3;
}

// A thread's 16 consecutive elements from `first` on, and their heads as bits (bit i: element
// first + i starts a segment). Past n: 0, no head (the last segment extended by zeros).
__device__ __forceinline__ void load_items(const float* __restrict__ in,
                                           const uint8_t* __restrict__ flags, long long n,
                                           long long first, float (&v)[kItems], unsigned& heads) {
  if (first + kItems <= n) {
    const float4* p = reinterpret_cast<const float4*>(in + first);
#pragma unroll
    for (int j = 0; j < kItems / 4; ++j) {
      const float4 q = p[j];
      v[4 * j] = q.x;
      v[4 * j + 1] = q.y;
      v[4 * j + 2] = q.z;
      v[4 * j + 3] = q.w;
    }
    const uint4 f = *reinterpret_cast<const uint4*>(flags + first);
    heads = nonzero_bytes(f.x) | nonzero_bytes(f.y) << 4 | nonzero_bytes(f.z) << 8 |
            nonzero_bytes(f.w) << 12;
  } else {
    heads = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const long long k = first + i;
      v[i] = k < n ? in[k] : 0.0f;
      if (k < n && flags[k]) heads |= 1u << i;
    }
  }
  if (first == 0) heads |= 1;  // element 0 always starts a segment
}

// A thread's elements reduced with the segmented operator: the sum since the last head.
__device__ __forceinline__ float reduce_items(const float (&v)[kItems], unsigned heads) {
  float s = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) s = (heads >> i & 1) ? v[i] : s + v[i];
  return s;
}

// Block-wide exclusive segmented scan of the threads' pairs (any_head, sum), Brent-Kung in
// shared memory. `first_head`: whether the thread's first element starts a segment (the
// original flag of its leaf). Returns the sum of the segment open where the thread's elements
// begin, `carry` entering the block. Thread 0 also gets the block's own pair, from the
// up-sweep's root, in *block_sum and *block_head.
__device__ float block_segmented_scan(bool any_head, bool first_head, float sum, float carry,
                                      float* block_sum, bool* block_head) {
  __shared__ float x[kThreads + kThreads / 32];
  __shared__ int f[kThreads + kThreads / 32];  // partial flags: OR-ed in the up-sweep
  __shared__ int f0[kThreads];                 // original flags, for the down-sweep
  const int t = threadIdx.x;
  x[pad(t)] = sum;
  f[pad(t)] = any_head;
  f0[t] = first_head;
  // Up-sweep: node r (the right end of its range) takes in its left half l.
  for (int stride = 2; stride <= kThreads; stride *= 2) {
    __syncthreads();
    if (t < kThreads / stride) {
      const int r = (t + 1) * stride - 1, l = r - stride / 2;
      if (!f[pad(r)]) x[pad(r)] += x[pad(l)];
      f[pad(r)] |= f[pad(l)];
    }
  }
  if (t == 0) {  // the root, last written by this thread: the block's pair, then its carry-in
    *block_sum = x[pad(kThreads - 1)];
    *block_head = f[pad(kThreads - 1)];
    x[pad(kThreads - 1)] = carry;
  }
  // Down-sweep: a node holds what enters its range; its left half gets the same, its right half
  // what leaves the left half.
  for (int stride = kThreads; stride >= 2; stride /= 2) {
    __syncthreads();
    if (t < kThreads / stride) {
      const int r = (t + 1) * stride - 1, l = r - stride / 2;
      const float left = x[pad(l)];
      x[pad(l)] = x[pad(r)];
      if (f0[l + 1])
        x[pad(r)] = 0;  // the right half starts with a head
      else if (f[pad(l)])
        x[pad(r)] = left;  // the segment entering the right half starts in the left half
      else
        x[pad(r)] += left;  // it runs through the left half
    }
  }
  __syncthreads();
  return x[pad(t)];
}

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    reduce_tiles(const float* __restrict__ in, const uint8_t* __restrict__ flags, long long n,
                 float* __restrict__ tile_sum, uint8_t* __restrict__ tile_head) {
  __shared__ float warp_sum[kWarps];
  __shared__ int warp_head[kWarps];
  float v[kItems];
  unsigned heads;
  load_items(in, flags, n, static_cast<long long>(blockIdx.x) * kTile + threadIdx.x * kItems, v,
             heads);
  const float s = reduce_items(v, heads);
  // The warp's pair: the sum over the lanes from the last one with a head on.
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned with_head = __ballot_sync(0xffffffffu, heads != 0);
  const int last = with_head ? 31 - __clz(static_cast<int>(with_head)) : 0;
  float w = lane >= last ? s : 0.0f;
#pragma unroll
  for (int o = 16; o > 0; o /= 2) w += __shfl_xor_sync(0xffffffffu, w, o);
  if (lane == 0) {
    warp_sum[warp] = w;
    warp_head[warp] = with_head != 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float a = warp_sum[0];
    int h = warp_head[0];
    for (int i = 1; i < kWarps; ++i) {
      a = warp_head[i] ? warp_sum[i] : a + warp_sum[i];
      h |= warp_head[i];
    }
    tile_sum[blockIdx.x] = a;
    tile_head[blockIdx.x] = static_cast<uint8_t>(h);
  }
}

// Exclusive segmented scan of one pair per thread over a block of up to 1024 threads, with
// warp shuffles: returns what enters the thread, `carry` entering the block.
__device__ float block_scan_shuffles(bool head, float s, float carry) {
  __shared__ float warp_sum[32];
  __shared__ int warp_head[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x / 32;
  const unsigned mask = __ballot_sync(0xffffffffu, head);
  // Inclusive within the warp: lanes from the last head at or below this lane on.
  const unsigned upto = mask & (0xffffffffu >> (31 - lane));
  const int start = upto ? 31 - __clz(static_cast<int>(upto)) : -1;
  float inc = s;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const float from = __shfl_up_sync(0xffffffffu, inc, d);
    if (lane >= d && lane - d >= start) inc += from;
  }
  if (lane == 31) {
    warp_sum[warp] = inc;
    warp_head[warp] = mask != 0;
  }
  __syncthreads();
  if (warp == 0) {  // the same over the warps' pairs, exclusive, from the carry
    const float a = lane < warps ? warp_sum[lane] : 0.0f;
    const bool ah = lane < warps && warp_head[lane];
    const unsigned m = __ballot_sync(0xffffffffu, ah);
    const unsigned up = m & (0xffffffffu >> (31 - lane));
    const int st = up ? 31 - __clz(static_cast<int>(up)) : -1;
    float in = a;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const float from = __shfl_up_sync(0xffffffffu, in, d);
      if (lane >= d && lane - d >= st) in += from;
    }
    if (st < 0) in += carry;
    const float before = __shfl_up_sync(0xffffffffu, in, 1);
    if (lane < warps) warp_sum[lane] = lane == 0 ? carry : before;
  }
  __syncthreads();
  const float entering = warp_sum[warp];
  const float before = __shfl_up_sync(0xffffffffu, inc, 1);
  if (lane == 0) return entering;
  return (mask & ((1u << lane) - 1)) ? before : before + entering;
}

// One block: the exclusive segmented scan of the tiles' pairs, each thread taking a run of
// consecutive tiles. For the scan it writes each tile's carry-in; for SpMV it finishes the row
// that each tile's first nonzeros continue (lead_row, lead_sum from spmv_tiles).
template <bool kSpmv>
__global__ void __launch_bounds__(kCarryThreads)
    scan_carries(const float* __restrict__ tile_sum, const uint8_t* __restrict__ tile_head,
                 int tiles, float* __restrict__ carry, const int* __restrict__ lead_row,
                 const float* __restrict__ lead_sum, float* __restrict__ y) {
  const int per = (tiles + kCarryThreads - 1) / kCarryThreads;
  const int begin = min(tiles, static_cast<int>(threadIdx.x) * per);
  const int end = min(tiles, begin + per);
  bool head = false;
  float s = 0;
#pragma unroll 8
  for (int t = begin; t < end; ++t) {
    const float ts = tile_sum[t];
    if (tile_head[t]) {
      head = true;
      s = ts;
    } else {
      s += ts;
    }
  }
  float e = block_scan_shuffles(head, s, 0.0f);
#pragma unroll 8
  for (int t = begin; t < end; ++t) {
    if (kSpmv) {
      if (lead_row[t] >= 0) y[lead_row[t]] = e + lead_sum[t];
    } else {
      carry[t] = e;
    }
    e = tile_head[t] ? tile_sum[t] : e + tile_sum[t];
  }
}

template <bool kInclusive>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    scan_tiles(const float* __restrict__ in, const uint8_t* __restrict__ flags, long long n,
               const float* __restrict__ carry, float* __restrict__ out) {
  float v[kItems];
  unsigned heads;
  const long long first = static_cast<long long>(blockIdx.x) * kTile + threadIdx.x * kItems;
  load_items(in, flags, n, first, v, heads);
  float block_sum;
  bool block_head;
  float acc = block_segmented_scan(heads != 0, heads & 1, reduce_items(v, heads),
                                   carry ? carry[blockIdx.x] : 0.0f, &block_sum, &block_head);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (kInclusive) {
      acc = (heads >> i & 1) ? v[i] : acc + v[i];
      v[i] = acc;
    } else {
      const float before = (heads >> i & 1) ? 0.0f : acc;
      acc = before + v[i];
      v[i] = before;
    }
  }
  if (first + kItems <= n) {
    float4* p = reinterpret_cast<float4*>(out + first);
#pragma unroll
    for (int j = 0; j < kItems / 4; ++j)
      p[j] = make_float4(v[4 * j], v[4 * j + 1], v[4 * j + 2], v[4 * j + 3]);
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      if (first + i < n) out[first + i] = v[i];
  }
}

// Scratch memory for the tiles' pairs, kept between calls and grown when needed (cudaMalloc
// is slow, and the timed call should be the scan).
void* scratch(size_t bytes) {
  static void* p = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    if (p) cudaFree(p);
    cudaMalloc(&p, bytes);
    capacity = bytes;
  }
  return p;
}

template <class T>
T* carve(char*& at, long long count) {
  T* p = reinterpret_cast<T*>(at);
  at += (count * static_cast<long long>(sizeof(T)) + 255) / 256 * 256;
  return p;
}

void segmented_scan(const float* in, const uint8_t* flags, float* out, int n, bool inclusive) {
  const int tiles = static_cast<int>((static_cast<long long>(n) + kTile - 1) / kTile);
  const float* carry = nullptr;
  if (tiles > 1) {
    char* at = static_cast<char*>(scratch(static_cast<size_t>(tiles) * 9 + 768));
    float* tile_sum = carve<float>(at, tiles);
    float* carry_in = carve<float>(at, tiles);
    uint8_t* tile_head = carve<uint8_t>(at, tiles);
    reduce_tiles<<<tiles, kThreads>>>(in, flags, n, tile_sum, tile_head);
    scan_carries<false>
        <<<1, kCarryThreads>>>(tile_sum, tile_head, tiles, carry_in, nullptr, nullptr, nullptr);
    carry = carry_in;
  }
  if (inclusive)
    scan_tiles<true><<<tiles, kThreads>>>(in, flags, n, carry, out);
  else
    scan_tiles<false><<<tiles, kThreads>>>(in, flags, n, carry, out);
}

// ---- SpMV ----

// The row that holds nonzero k: the last r in [lo, hi] with row_ptr[r] <= k (row_ptr[lo] <= k).
__device__ __forceinline__ int row_of(const int* __restrict__ row_ptr, long long k, int lo,
                                      int hi) {
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (row_ptr[mid] <= k)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

__global__ void tile_first_row(const int* __restrict__ row_ptr, int n_rows, int tiles,
                               int* __restrict__ first_row) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < tiles) first_row[t] = row_of(row_ptr, static_cast<long long>(t) * kTile, 0, n_rows - 1);
}

__global__ void zero_empty_rows(const int* __restrict__ row_ptr, int n_rows,
                                float* __restrict__ y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n_rows && row_ptr[r] == row_ptr[r + 1]) y[r] = 0.0f;
}

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    spmv_tiles(CsrMatrix a, const float* __restrict__ x, const int* __restrict__ first_row,
               int tiles, float* __restrict__ y, float* __restrict__ tile_sum,
               uint8_t* __restrict__ tile_head, int* __restrict__ lead_row,
               float* __restrict__ lead_sum) {
  const int* __restrict__ row_ptr = a.row_ptr;
  const long long nnz = a.nnz;
  const int tile = blockIdx.x;
  const long long t0 = static_cast<long long>(tile) * kTile;
  const long long first = t0 + threadIdx.x * kItems;
  // The products, 0 past nnz.
  float p[kItems];
  if (first + kItems <= nnz) {
    const float4* vp = reinterpret_cast<const float4*>(a.values + first);
    const int4* cp = reinterpret_cast<const int4*>(a.col_idx + first);
#pragma unroll
    for (int j = 0; j < kItems / 4; ++j) {
      const float4 v = vp[j];
      const int4 c = cp[j];
      p[4 * j] = v.x * x[c.x];
      p[4 * j + 1] = v.y * x[c.y];
      p[4 * j + 2] = v.z * x[c.z];
      p[4 * j + 3] = v.w * x[c.w];
    }
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i)
      p[i] = first + i < nnz ? a.values[first + i] * x[a.col_idx[first + i]] : 0.0f;
  }

  // The rows: r holds the current nonzero, [start, end) its range.
  const int r_lo = first_row[tile];
  const int r_hi = tile + 1 < tiles ? first_row[tile + 1] : a.n_rows - 1;
  int r = 0;
  long long start = 0, end = 0;
  if (first < nnz) {
    r = row_of(row_ptr, first, r_lo, r_hi);
    start = row_ptr[r];
    end = row_ptr[r + 1];
  }
  float acc = 0, lead = 0;
  bool seen_head = false;
  int lead_r = -1;  // the first row to end here that began before this thread's nonzeros
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const long long k = first + i;
    if (k >= nnz) break;
    if (k == end) {  // the next nonempty row
      do ++r;
      while (row_ptr[r + 1] <= k);
      start = k;
      end = row_ptr[r + 1];
    }
    const bool head = k == start;
    acc = head ? p[i] : acc + p[i];
    seen_head = seen_head || head;
    if (k + 1 == end) {
      if (seen_head) {
        y[r] = acc;
      } else {
        lead_r = r;
        lead = acc;
      }
    }
  }

  float block_sum;
  bool block_head;
  const float entering = block_segmented_scan(seen_head, first < nnz && start == first, acc, 0.0f,
                                              &block_sum, &block_head);
  if (lead_r >= 0) {
    if (lead_r == r_lo && row_ptr[r_lo] < t0) {  // began in an earlier tile: scan_carries ends it
      lead_row[tile] = lead_r;
      lead_sum[tile] = entering + lead;
    } else {
      y[lead_r] = entering + lead;
    }
  }
  if (threadIdx.x == 0) {
    tile_sum[tile] = block_sum;
    tile_head[tile] = block_head;
    // No row that began before the tile ends in it: nothing to finish.
    const long long tile_end = t0 + kTile < nnz ? t0 + kTile : nnz;
    if (!(row_ptr[r_lo] < t0 && row_ptr[r_lo + 1] <= tile_end)) lead_row[tile] = -1;
  }
}

}  // namespace

void segmented_scan_inclusive(const float* in, const uint8_t* flags, float* out, int n) {
  segmented_scan(in, flags, out, n, true);
}

void segmented_scan_exclusive(const float* in, const uint8_t* flags, float* out, int n) {
  segmented_scan(in, flags, out, n, false);
}

void spmv_csr(CsrMatrix a, const float* x, float* y) {
  zero_empty_rows<<<(a.n_rows + 255) / 256, 256>>>(a.row_ptr, a.n_rows, y);
  if (a.nnz == 0) return;
  const int tiles = static_cast<int>((static_cast<long long>(a.nnz) + kTile - 1) / kTile);
  char* at = static_cast<char*>(scratch(static_cast<size_t>(tiles) * 17 + 1280));
  int* first_row = carve<int>(at, tiles);
  float* tile_sum = carve<float>(at, tiles);
  int* lead_row = carve<int>(at, tiles);
  float* lead_sum = carve<float>(at, tiles);
  uint8_t* tile_head = carve<uint8_t>(at, tiles);
  tile_first_row<<<(tiles + 255) / 256, 256>>>(a.row_ptr, a.n_rows, tiles, first_row);
  spmv_tiles<<<tiles, kThreads>>>(a, x, first_row, tiles, y, tile_sum, tile_head, lead_row,
                                  lead_sum);
  scan_carries<true>
      <<<1, kCarryThreads>>>(tile_sum, tile_head, tiles, nullptr, lead_row, lead_sum, y);
}
