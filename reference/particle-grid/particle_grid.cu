// particle-grid reference: the counting-sort build, the map-sort-find-starts build, and a
// neighbour count over the grid.
//
// Atomic build, one pass of atomics and three of bandwidth: (1) one thread per particle computes
// its cell and does atomicAdd on the cell's count, keeping what atomicAdd returns (its place
// inside the cell) beside the cell id in an int2; (2) the counts are scanned (exclusive) into
// cell_start, by a three-kernel reduce-then-scan over 4096-count tiles (the scan of lab 4); (3)
// one thread per particle writes its index to cell_start[cell] + place. No second atomic pass
// and no second read of the positions: 16 bytes read and 8 written per particle in (1), 8 read
// and 4 written (scattered) in (3).
//
// Sort build: map to (cell id, index) pairs, CUB's radix sort over only the key bits that cell
// ids use (22 for 128^3 + 1 ids), then one thread per boundary between sorted keys writes the
// start of every cell from the key before it up to its own (so empty cells start where the next
// non-empty one does, exactly the exclusive scan of the counts), and one thread per cell
// derives its count from two starts. CUB has no CPU back-end: on gpulab's CPU backend
// (GPULAB_SIM_BACKEND) the sort is Thrust's, in place on the arrays the map kernel wrote.
//
// Neighbours: the positions are first gathered into cell order (one float4 per slot of
// particle_index), so that the particles of a row of three adjacent cells are one contiguous
// range; one thread per slot then scans the 9 (3-D) or 3 (2-D) ranges around its cell. Threads
// of a warp handle particles of the same or adjacent cells, so their loads hit the same lines.
//
// Scratch is kept between calls (statics grown on demand): cudaMalloc in a timed call would
// cost more than the build.
#include <cuda_runtime.h>

#include <cstddef>

#include "particle_grid.h"

#ifdef GPULAB_SIM_BACKEND
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#else
#include <cub/device/device_radix_sort.cuh>
#endif

namespace {

constexpr int kThreads = 256;

int blocks(long long items) {
  return static_cast<int>((items + kThreads - 1) / kThreads);
}

// Device scratch kept between calls, grown when a call needs more.
template <class T>
struct Scratch {
  T* ptr = nullptr;
  size_t count = 0;
  T* get(size_t need) {
    if (need > count) {
      if (ptr) cudaFree(ptr);
      cudaMalloc(&ptr, need * sizeof(T));
      count = need;
    }
    return ptr;
  }
};

// The cell rule of particle_grid.h. x * inv is exact (inv = 1 / cell, a power of two).
struct CellMap {
  int nx, ny, nz, ncells;
  float inv;
  bool reject;

  explicit CellMap(const Grid& g)
      : nx(g.nx),
        ny(g.ny),
        nz(g.nz),
        ncells(g.nx * g.ny * g.nz),
        inv(1.0f / g.cell),
        reject(g.reject_outside != 0) {}

  // The cell coordinates, clamped; false when the particle is outside the box.
  __device__ __forceinline__ bool coords(float4 p, int& cx, int& cy, int& cz) const {
    cx = static_cast<int>(floorf(p.x * inv));
    cy = static_cast<int>(floorf(p.y * inv));
    cz = static_cast<int>(floorf(p.z * inv));
    const bool inside = cx >= 0 && cx < nx && cy >= 0 && cy < ny && cz >= 0 && cz < nz;
    cx = min(max(cx, 0), nx - 1);
    cy = min(max(cy, 0), ny - 1);
    cz = min(max(cz, 0), nz - 1);
    return inside;
  }
  __device__ __forceinline__ int id(float4 p) const {
    int cx, cy, cz;
    if (!coords(p, cx, cy, cz) && reject) return ncells;
    return (cz * ny + cy) * nx + cx;
  }
};

// ---- part 1: counting sort ----

__global__ void count_cells(const float4* __restrict__ pos, int n, CellMap map,
                            int* __restrict__ count, int2* __restrict__ cell_place) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int c = map.id(pos[i]);
  cell_place[i] = make_int2(c, atomicAdd(&count[c], 1));
}

__global__ void scatter_index(const int2* __restrict__ cell_place, int n,
                              const int* __restrict__ start, int* __restrict__ index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int2 cp = cell_place[i];
  index[start[cp.x] + cp.y] = i;
}

// The exclusive scan of the counts: 256 threads x 16 items per tile; each tile's total, the
// totals scanned (recursively), each tile scanned again with its carry.
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;

__device__ __forceinline__ int padded(int i) {
  return i + (i >> 5);
}

template <class T>
__global__ void tile_sums(const T* __restrict__ in, int m, unsigned* __restrict__ sums) {
  __shared__ unsigned warp_sums[kThreads / 32];
  const size_t base = static_cast<size_t>(blockIdx.x) * kTile;
  unsigned v = 0;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const size_t i = base + j * kThreads + threadIdx.x;
    if (i < static_cast<size_t>(m)) v += static_cast<unsigned>(in[i]);
  }
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0u;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) sums[blockIdx.x] = v;
  }
}

// Scans one tile per block (exclusive) into out, adding carries[blockIdx.x] when given. In
// place is safe: a block reads its whole tile before it writes.
template <class T>
__global__ void tile_scan(const T* in, T* out, int m, const unsigned* __restrict__ carries) {
  __shared__ unsigned tile[kTile + kTile / 32];
  __shared__ unsigned totals[kThreads];
  const int t = threadIdx.x;
  const size_t base = static_cast<size_t>(blockIdx.x) * kTile;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int i = j * kThreads + t;
    tile[padded(i)] = base + i < static_cast<size_t>(m) ? static_cast<unsigned>(in[base + i]) : 0u;
  }
  __syncthreads();
  unsigned item[kItems];
  unsigned sum = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    item[k] = sum;
    sum += tile[padded(t * kItems + k)];
  }
  // Brent-Kung over the thread totals.
  totals[t] = sum;
  __syncthreads();
  for (int stride = 1; stride < kThreads; stride *= 2) {
    const int i = (t + 1) * 2 * stride - 1;
    if (i < kThreads) totals[i] += totals[i - stride];
    __syncthreads();
  }
  if (t == kThreads - 1) totals[t] = 0;
  __syncthreads();
  for (int stride = kThreads / 2; stride >= 1; stride /= 2) {
    const int i = (t + 1) * 2 * stride - 1;
    if (i < kThreads) {
      const unsigned left = totals[i - stride];
      totals[i - stride] = totals[i];
      totals[i] += left;
    }
    __syncthreads();
  }
  const unsigned prefix = totals[t] + (carries ? carries[blockIdx.x] : 0u);
#pragma unroll
  for (int k = 0; k < kItems; ++k) tile[padded(t * kItems + k)] = prefix + item[k];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int i = j * kThreads + t;
    if (base + i < static_cast<size_t>(m)) out[base + i] = static_cast<T>(tile[padded(i)]);
  }
}

// Scratch words the scan of m items needs for its tile totals, all levels.
size_t scan_scratch(int m) {
  size_t words = 0;
  for (int tiles = (m + kTile - 1) / kTile; tiles > 1; tiles = (tiles + kTile - 1) / kTile)
    words += tiles;
  return words;
}

template <class T>
void exclusive_scan(const T* in, T* out, int m, unsigned* scratch) {
  const int tiles = (m + kTile - 1) / kTile;
  if (tiles == 1) {
    tile_scan<T><<<1, kThreads>>>(in, out, m, nullptr);
    return;
  }
  unsigned* sums = scratch;
  tile_sums<T><<<tiles, kThreads>>>(in, m, sums);
  exclusive_scan<unsigned>(sums, sums, tiles, scratch + tiles);
  tile_scan<T><<<tiles, kThreads>>>(in, out, m, sums);
}

// ---- part 2: map, sort, find starts ----

__global__ void map_keys(const float4* __restrict__ pos, int n, CellMap map, int* __restrict__ keys,
                         int* __restrict__ values) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = map.id(pos[i]);
  values[i] = i;
}

// Thread i (0 <= i <= n) owns the boundary before sorted element i: the cells after the key
// before it (none before element 0) up to its own key (the last slot, ncells, after element
// n - 1) start at i. Every cell 0 .. ncells is written by exactly one thread.
__global__ void find_starts(const int* __restrict__ keys, int n, int ncells,
                            int* __restrict__ start) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  const int after = i == 0 ? -1 : keys[i - 1];
  const int upto = i == n ? ncells : keys[i];
  for (int c = after + 1; c <= upto; ++c) start[c] = i;
}

__global__ void counts_from_starts(const int* __restrict__ start, int n, int ncells,
                                   int* __restrict__ count) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > ncells) return;
  count[c] = (c < ncells ? start[c + 1] : n) - start[c];
}

// ---- part 3: neighbours ----

__global__ void gather_positions(const float4* __restrict__ pos, const int* __restrict__ index,
                                 int n, float4* __restrict__ sorted) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) sorted[k] = pos[index[k]];
}

__global__ void count_in_rows(const float4* __restrict__ sorted, const int* __restrict__ index,
                              int n, CellMap map, float r2, const int* __restrict__ start,
                              const int* __restrict__ count, int* __restrict__ neighbours) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const float4 p = sorted[k];
  int cx, cy, cz;
  if (!map.coords(p, cx, cy, cz) && map.reject) {
    neighbours[index[k]] = -1;
    return;
  }
  const int x0 = max(cx - 1, 0), x1 = min(cx + 1, map.nx - 1);
  int found = 0;
  for (int z = max(cz - 1, 0); z <= min(cz + 1, map.nz - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, map.ny - 1); ++y) {
      // Cells x0 .. x1 of this row have consecutive ids: their particles are one range.
      const int row = (z * map.ny + y) * map.nx;
      const int end = start[row + x1] + count[row + x1];
      for (int j = start[row + x0]; j < end; ++j) {
        const float4 q = sorted[j];
        const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        found += dx * dx + dy * dy + dz * dz < r2;
      }
    }
  neighbours[index[k]] = found - 1;  // the particle itself, at distance 0, was counted once
}

}  // namespace

void build_grid_atomic(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                       int* particle_index) {
  static Scratch<int2> cell_place;
  static Scratch<unsigned> scan_sums;
  const CellMap map(grid);
  const int slots = map.ncells + 1;
  int2* cp = cell_place.get(n);
  unsigned* sums = scan_sums.get(scan_scratch(slots) + 1);
  cudaMemsetAsync(cell_count, 0, static_cast<size_t>(slots) * sizeof(int));
  count_cells<<<blocks(n), kThreads>>>(reinterpret_cast<const float4*>(pos), n, map, cell_count,
                                       cp);
  exclusive_scan<int>(cell_count, cell_start, slots, sums);
  scatter_index<<<blocks(n), kThreads>>>(cp, n, cell_start, particle_index);
}

void build_grid_sort(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                     int* particle_index) {
  static Scratch<int> keys_in;
  const CellMap map(grid);
  int* keys = keys_in.get(n);
#ifdef GPULAB_SIM_BACKEND
  map_keys<<<blocks(n), kThreads>>>(reinterpret_cast<const float4*>(pos), n, map, keys,
                                    particle_index);
  thrust::sort_by_key(thrust::device, keys, keys + n, particle_index);
  const int* sorted = keys;
#else
  static Scratch<int> keys_out, values_in;
  static Scratch<unsigned char> temp;
  int* values = values_in.get(n);
  int* sorted_keys = keys_out.get(n);
  map_keys<<<blocks(n), kThreads>>>(reinterpret_cast<const float4*>(pos), n, map, keys, values);
  int bits = 1;  // the key bits in use: ids go up to ncells
  while (bits < 31 && (map.ncells >> bits) != 0) ++bits;
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, sorted_keys, values, particle_index, n, 0,
                                  bits);
  void* t = temp.get(bytes);
  cub::DeviceRadixSort::SortPairs(t, bytes, keys, sorted_keys, values, particle_index, n, 0, bits);
  const int* sorted = sorted_keys;
#endif
  find_starts<<<blocks(static_cast<long long>(n) + 1), kThreads>>>(sorted, n, map.ncells,
                                                                   cell_start);
  counts_from_starts<<<blocks(static_cast<long long>(map.ncells) + 1), kThreads>>>(
      cell_start, n, map.ncells, cell_count);
}

void count_neighbours(const float* pos, int n, Grid grid, const int* cell_start,
                      const int* cell_count, const int* particle_index, int* neighbours) {
  static Scratch<float4> sorted_pos;
  const CellMap map(grid);
  float4* sorted = sorted_pos.get(n);
  gather_positions<<<blocks(n), kThreads>>>(reinterpret_cast<const float4*>(pos), particle_index, n,
                                            sorted);
  count_in_rows<<<blocks(n), kThreads>>>(sorted, particle_index, n, map, grid.cell * grid.cell,
                                         cell_start, cell_count, neighbours);
}
