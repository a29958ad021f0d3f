// binning reference solution (hidden from students): the bar their times are scored against.
//
// The CPU sorts the atoms into bins of fixed capacity (the rest into an overflow list) and
// builds the list of neighbour-bin offsets; the GPU sums, per tile of lattice points, the atoms
// of the neighbour bins; meanwhile the CPU sums the overflow atoms into the tiles they reach,
// which a second kernel adds at the end.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "binning.h"

namespace {

// ---- Tuning knobs ----
// A block computes a tile of kTileX x kTileY x kTileZ lattice points; each thread computes
// kCoarseY of them along y, kThreadsY apart, so that one cylinder test (the atom's distance to
// the thread's line of points) serves all of them. On the H100 (docs/PERF.md), box-large
// (B = 4 Å = 8 h) with the lab's flags (-ftz=true: about 15% faster) takes 7.92 ms in all with
// 8x8x8 and kCoarseY = 8 (before the grid was aligned with the tiles: 8.06; 9.76 with
// kCoarseY = 4; 8.79 with 8x16x8; 8.42 with 16x8x8).
constexpr int kTileX = 8, kTileY = 8, kTileZ = 8;
constexpr int kCoarseY = 8;
constexpr int kThreadsY = kTileY / kCoarseY;
constexpr int kBlockThreads = kTileX * kThreadsY * kTileZ;
constexpr int kTilePoints = kTileX * kTileY * kTileZ;
constexpr int kStageSlots = 256;   // atom slots staged in shared memory at a time (4 KB)
constexpr int kMaxOffsets = 4096;  // neighbour offsets per launch (48 KB of constant memory)
static_assert(kTileY % kCoarseY == 0, "kCoarseY must divide kTileY");

__constant__ int3 c_offsets[kMaxOffsets];

// Bins: a box of nx x ny x nz cubes of side `size` from `origin`, `capacity` float4 slots each
// (x, y, z, q), filled from slot 0; q == 0 marks a bin's first empty slot.
struct BinGrid {
  float3 origin;
  float size, inv_size;
  int nx, ny, nz, capacity;
};

struct Cutoff {
  float rc2, inv_rc2;
};

__host__ __device__ inline float smoothed(float q, float r2, Cutoff c, float inv_r) {
  const float s = fmaxf(0.0f, 1.0f - r2 * c.inv_rc2);  // 0 at and beyond the cutoff
  return q * inv_r * s * s;
}

// One block per tile. `tile_bin` holds each tile's base bin along x, then y, then z (the bin of
// its first point); the offsets are relative to it. With `accumulate`, adds to the potential
// (a neighbourhood longer than kMaxOffsets takes several launches).
__global__ void __launch_bounds__(kBlockThreads)
    cutoff_kernel(const float4* __restrict__ bins, BinGrid grid, const int* __restrict__ tile_bin,
                  int n_offsets, CutoffLattice lat, Cutoff cut, bool accumulate,
                  float* __restrict__ potential) {
  __shared__ float4 stage[kStageSlots];
  const int tid = (threadIdx.z * kThreadsY + threadIdx.y) * kTileX + threadIdx.x;
  const int i = blockIdx.x * kTileX + threadIdx.x;
  const int k = blockIdx.z * kTileZ + threadIdx.z;
  const int j0 = blockIdx.y * kTileY + threadIdx.y;
  const float x = i * lat.h, z = k * lat.h;
  float y[kCoarseY], v[kCoarseY];
#pragma unroll
  for (int m = 0; m < kCoarseY; ++m) {
    y[m] = (j0 + m * kThreadsY) * lat.h;
    v[m] = 0.0f;
  }
  const int bx = tile_bin[blockIdx.x];
  const int by = tile_bin[gridDim.x + blockIdx.y];
  const int bz = tile_bin[gridDim.x + gridDim.y + blockIdx.z];
  const int cap = grid.capacity;
  const int bins_per_stage = kStageSlots / cap;

  for (int first = 0; first < n_offsets; first += bins_per_stage) {
    const int n_bins = min(bins_per_stage, n_offsets - first);
    __syncthreads();  // every thread is done with the previous stage's atoms
    for (int s = tid; s < n_bins * cap; s += kBlockThreads) {
      const int b = s / cap;
      const int3 d = c_offsets[first + b];
      const int cx = bx + d.x, cy = by + d.y, cz = bz + d.z;
      float4 atom = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // outside the grid: an empty bin
      if (cx >= 0 && cx < grid.nx && cy >= 0 && cy < grid.ny && cz >= 0 && cz < grid.nz)
        atom =
            bins[((static_cast<size_t>(cz) * grid.ny + cy) * grid.nx + cx) * cap + (s - b * cap)];
      stage[s] = atom;
    }
    __syncthreads();
    for (int b = 0; b < n_bins; ++b) {
      for (int slot = 0; slot < cap; ++slot) {
        const float4 a = stage[b * cap + slot];
        if (a.w == 0.0f) break;  // the bin's first empty slot
        const float dx = x - a.x, dz = z - a.z;
        const float dxz2 = dx * dx + dz * dz;
        if (dxz2 >= cut.rc2) continue;  // cylinder test: no point of this thread is in reach
#pragma unroll
        for (int m = 0; m < kCoarseY; ++m) {
          const float dy = y[m] - a.y;
          const float r2 = dxz2 + dy * dy;
          // No branch: beyond the cutoff the smoothing factor is 0, and a warp whose lanes
          // disagree about r2 < rc2 would run both ways (3% slower on box-large).
          v[m] += smoothed(a.w, r2, cut, rsqrtf(r2));
        }
      }
    }
  }
  if (i >= lat.nx || k >= lat.nz) return;
#pragma unroll
  for (int m = 0; m < kCoarseY; ++m) {
    const int j = j0 + m * kThreadsY;
    if (j >= lat.ny) continue;
    float* p = potential + (static_cast<size_t>(k) * lat.ny + j) * lat.nx + i;
    *p = accumulate ? *p + v[m] : v[m];
  }
}

// Adds the overflow atoms' sums: block t adds values[t] to tile tiles[t] (x-major tile index).
__global__ void __launch_bounds__(kTilePoints)
    add_tiles_kernel(const int* __restrict__ tiles, const float* __restrict__ values, int tiles_x,
                     int tiles_y, CutoffLattice lat, float* __restrict__ potential) {
  const int t = tiles[blockIdx.x];
  const int i = (t % tiles_x) * kTileX + threadIdx.x;
  const int j = (t / tiles_x % tiles_y) * kTileY + threadIdx.y;
  const int k = (t / tiles_x / tiles_y) * kTileZ + threadIdx.z;
  if (i >= lat.nx || j >= lat.ny || k >= lat.nz) return;
  const int local = (threadIdx.z * kTileY + threadIdx.y) * kTileX + threadIdx.x;
  potential[(static_cast<size_t>(k) * lat.ny + j) * lat.nx + i] +=
      values[static_cast<size_t>(blockIdx.x) * kTilePoints + local];
}

// A pinned host buffer and its device twin, grown as needed and kept across calls:
// allocating them is slower than everything else this function does.
template <class T>
struct Mirror {
  T* host = nullptr;
  T* dev = nullptr;
  size_t capacity = 0;
  void reserve(size_t n) {
    if (n <= capacity) return;
    cudaFreeHost(host);
    cudaFree(dev);
    capacity = std::max(n, 2 * capacity);
    cudaMallocHost(&host, capacity * sizeof(T));
    cudaMalloc(&dev, capacity * sizeof(T));
    std::fill(host, host + capacity, T{});  // the bin slots past a marker are copied too
  }
  void upload(size_t n) { cudaMemcpyAsync(dev, host, n * sizeof(T), cudaMemcpyHostToDevice, 0); }
};

struct Workspace {
  Mirror<float4> bins;
  Mirror<int> tile_bin, tiles;
  Mirror<float> values;
  Mirror<int3> offsets;  // only the host side is used (it is copied to constant memory)
  std::vector<int> count, tile_slot;
  std::vector<float> row;  // one row of an overflow atom's terms
  std::vector<float4> overflow;
  cudaEvent_t done = nullptr;  // after the last copy of the previous call
};

// One axis of the geometry: how many tiles, each one's base bin, and where the tiles' points
// lie relative to the low face of their base bin ([lo, hi] over all tiles).
struct Axis {
  int tiles = 0;
  double lo = 0, hi = 0;
};

Axis tile_axis(int n, int tile, float h, float origin, float inv_size, float size, int* base) {
  Axis a;
  a.tiles = (n + tile - 1) / tile;
  for (int t = 0; t < a.tiles; ++t) {
    const int i_first = t * tile, i_last = std::min(i_first + tile, n) - 1;
    const float first = i_first * h, last = i_last * h;
    base[t] = static_cast<int>(std::floor((first - origin) * inv_size));
    const double face = static_cast<double>(origin) + static_cast<double>(base[t]) * size;
    a.lo = std::min(a.lo, first - face);
    a.hi = std::max(a.hi, last - face);
  }
  return a;
}

// Distance along one axis from the tiles' points to the bin at offset d from the base bin.
double axis_gap(int d, const Axis& a, double size) {
  if (d > 0) return std::max(0.0, d * size - a.hi);
  if (d < 0) return std::max(0.0, a.lo - (d + 1) * size);
  return 0.0;
}

// The bins cover the lattice's box widened by the cutoff, rounded out to whole bins from the
// lattice's origin: an atom outside is farther than the cutoff from every lattice point. The
// rounding puts a bin face at x = 0, so where a tile is a whole number of bins wide (box-large:
// 8 points of 0.5 Å, bins of 4 Å) every tile starts on a bin face and its neighbourhood has
// 341 bins instead of 438 (a grid starting half a bin off: 22% fewer atoms visited).
BinGrid make_grid(CutoffLattice lat, CutoffParams params) {
  BinGrid g;
  const float pad = std::ceil(params.cutoff / params.bin_size) * params.bin_size;
  g.origin = make_float3(-pad, -pad, -pad);
  g.size = params.bin_size;
  g.inv_size = 1.0f / params.bin_size;
  g.nx = static_cast<int>(((lat.nx - 1) * lat.h + 2 * pad) * g.inv_size) + 1;
  g.ny = static_cast<int>(((lat.ny - 1) * lat.h + 2 * pad) * g.inv_size) + 1;
  g.nz = static_cast<int>(((lat.nz - 1) * lat.h + 2 * pad) * g.inv_size) + 1;
  g.capacity = std::min(params.bin_capacity, kStageSlots);  // more slots go to the overflow
  return g;
}

// Each tile's base bin (into tile_bin: x tiles, then y, then z), and the neighbourhood: the
// offsets of every bin that may hold an atom within the cutoff of a point of a tile, wherever
// the tile sits in its base bin.
std::vector<int3> neighbourhood(CutoffLattice lat, const BinGrid& g, float rc, int* tile_bin) {
  const int tx = (lat.nx + kTileX - 1) / kTileX, ty = (lat.ny + kTileY - 1) / kTileY;
  const double size = g.size;
  const Axis ax = tile_axis(lat.nx, kTileX, lat.h, g.origin.x, g.inv_size, g.size, tile_bin);
  const Axis ay = tile_axis(lat.ny, kTileY, lat.h, g.origin.y, g.inv_size, g.size, tile_bin + tx);
  const Axis az =
      tile_axis(lat.nz, kTileZ, lat.h, g.origin.z, g.inv_size, g.size, tile_bin + tx + ty);
  const double reach = rc + 0.01 * size;  // slack for atoms rounded into a neighbouring bin
  auto last = [&](const Axis& a) { return static_cast<int>(std::ceil((reach + a.hi) / size)) + 1; };
  const int first = -static_cast<int>(std::ceil(reach / size)) - 1;
  std::vector<int3> offsets;
  for (int dz = first; dz <= last(az); ++dz)
    for (int dy = first; dy <= last(ay); ++dy)
      for (int dx = first; dx <= last(ax); ++dx) {
        const double gx = axis_gap(dx, ax, size), gy = axis_gap(dy, ay, size),
                     gz = axis_gap(dz, az, size);
        if (gx * gx + gy * gy + gz * gz < reach * reach) offsets.push_back(make_int3(dx, dy, dz));
      }
  return offsets;
}

// Each atom into the next free slot of its bin, or into the overflow list; then the first
// empty slot of each bin that is not full is marked with q = 0. (On the H100's host this takes
// 2 to 3.5 ms for box-large's 207 267 atoms, a fifth to a quarter of the total, on the critical
// path: the kernel needs the bins. Sorting by layer of bins first, or filling the layers on
// several threads, was no faster there: the scattered writes dominate.)
void bin_atoms(const float* atoms, int n_atoms, const BinGrid& g, Workspace& w) {
  const size_t n_bins = static_cast<size_t>(g.nx) * g.ny * g.nz;
  w.bins.reserve(n_bins * g.capacity);
  w.count.assign(n_bins, 0);
  w.overflow.clear();
  for (int a = 0; a < n_atoms; ++a) {
    const float4 atom =
        make_float4(atoms[4 * a], atoms[4 * a + 1], atoms[4 * a + 2], atoms[4 * a + 3]);
    const float u = (atom.x - g.origin.x) * g.inv_size, v = (atom.y - g.origin.y) * g.inv_size,
                s = (atom.z - g.origin.z) * g.inv_size;
    if (!(u >= 0 && u < g.nx && v >= 0 && v < g.ny && s >= 0 && s < g.nz) || atom.w == 0)
      continue;  // beyond the cutoff of every lattice point, or no charge
    const size_t bin =
        (static_cast<size_t>(s) * g.ny + static_cast<size_t>(v)) * g.nx + static_cast<size_t>(u);
    const int slot = w.count[bin]++;
    if (slot < g.capacity)
      w.bins.host[bin * g.capacity + slot] = atom;
    else
      w.overflow.push_back(atom);
  }
  for (size_t b = 0; b < n_bins; ++b)
    if (w.count[b] < g.capacity) w.bins.host[b * g.capacity + w.count[b]].w = 0.0f;
}

// The overflow atoms' sums on the CPU, into the tiles they reach (w.values, one tile of
// kTilePoints floats per entry of w.tiles). Returns the number of tiles.
int sum_overflow(CutoffLattice lat, Cutoff cut, float rc, Workspace& w) {
  const int tx = (lat.nx + kTileX - 1) / kTileX, ty = (lat.ny + kTileY - 1) / kTileY,
            tz = (lat.nz + kTileZ - 1) / kTileZ;
  // The points within the cutoff of c along one axis, and one more on each side against
  // rounding (the smoothing factor is 0 beyond the cutoff).
  auto range = [&](float c, int n, int& first, int& last) {
    first = std::max(0, static_cast<int>(std::floor((c - rc) / lat.h)));
    last = std::min(n - 1, static_cast<int>(std::ceil((c + rc) / lat.h)));
  };
  w.tile_slot.assign(static_cast<size_t>(tx) * ty * tz, -1);
  int touched = 0;
  for (const float4& a : w.overflow) {
    int i0, i1, j0, j1, k0, k1;
    range(a.x, lat.nx, i0, i1);
    range(a.y, lat.ny, j0, j1);
    range(a.z, lat.nz, k0, k1);
    for (int k = k0 / kTileZ; k1 >= k0 && k <= k1 / kTileZ; ++k)
      for (int j = j0 / kTileY; j1 >= j0 && j <= j1 / kTileY; ++j)
        for (int i = i0 / kTileX; i1 >= i0 && i <= i1 / kTileX; ++i) {
          int& slot = w.tile_slot[(static_cast<size_t>(k) * ty + j) * tx + i];
          if (slot < 0) slot = touched++;
        }
  }
  w.tiles.reserve(static_cast<size_t>(touched));
  w.values.reserve(static_cast<size_t>(touched) * kTilePoints);
  std::fill(w.values.host, w.values.host + static_cast<size_t>(touched) * kTilePoints, 0.0f);
  for (size_t t = 0; t < w.tile_slot.size(); ++t)
    if (w.tile_slot[t] >= 0) w.tiles.host[w.tile_slot[t]] = static_cast<int>(t);
  w.row.resize(static_cast<size_t>(lat.nx));
  float* row = w.row.data();
  for (const float4 a : w.overflow) {
    const float ax = a.x, ay = a.y, az = a.z, q = a.w, h = lat.h;  // locals: no aliasing
    int i0, i1, j0, j1, k0, k1;
    range(ax, lat.nx, i0, i1);
    range(ay, lat.ny, j0, j1);
    range(az, lat.nz, k0, k1);
    for (int k = k0; k <= k1; ++k) {
      const float dz = k * h - az;
      for (int j = j0; j <= j1; ++j) {
        const float dy = j * h - ay;
        const float dyz2 = dy * dy + dz * dz;
        if (dyz2 >= cut.rc2) continue;
        // The row's points within the cutoff (one more each side against rounding): their
        // terms first, in a tight loop; then into the tiles they belong to.
        const float half = std::sqrt(cut.rc2 - dyz2);
        const int ia = std::max(i0, static_cast<int>(std::floor((ax - half) / h)));
        const int ib = std::min(i1, static_cast<int>(std::ceil((ax + half) / h)));
        for (int i = ia; i <= ib; ++i) {
          const float dx = i * h - ax;
          const float r2 = dx * dx + dyz2;
          row[i] = smoothed(q, r2, cut, 1.0f / std::sqrt(r2));
        }
        const size_t tile_row = (static_cast<size_t>(k / kTileZ) * ty + j / kTileY) * tx;
        const int local_row = ((k % kTileZ) * kTileY + j % kTileY) * kTileX;
        for (int i = ia; i <= ib; ++i)
          w.values.host[static_cast<size_t>(w.tile_slot[tile_row + i / kTileX]) * kTilePoints +
                        local_row + i % kTileX] += row[i];
      }
    }
  }
  return touched;
}

}  // namespace

void cutoff_potential(const float* atoms, int n_atoms, CutoffLattice lat, CutoffParams params,
                      float* potential) {
  static Workspace w;
  if (!w.done) cudaEventCreateWithFlags(&w.done, cudaEventDisableTiming);
  cudaEventSynchronize(w.done);  // the previous call's copies have read our host buffers

  const float rc = params.cutoff;
  const Cutoff cut{rc * rc, 1.0f / (rc * rc)};
  const BinGrid g = make_grid(lat, params);
  const int tx = (lat.nx + kTileX - 1) / kTileX, ty = (lat.ny + kTileY - 1) / kTileY,
            tz = (lat.nz + kTileZ - 1) / kTileZ;
  w.tile_bin.reserve(static_cast<size_t>(tx + ty + tz));
  const std::vector<int3> offsets = neighbourhood(lat, g, rc, w.tile_bin.host);
  w.offsets.reserve(offsets.size());
  std::copy(offsets.begin(), offsets.end(), w.offsets.host);
  bin_atoms(atoms, n_atoms, g, w);

  // The GPU part, launched without waiting for it.
  w.bins.upload(static_cast<size_t>(g.nx) * g.ny * g.nz * g.capacity);
  w.tile_bin.upload(static_cast<size_t>(tx + ty + tz));
  const dim3 grid_dim(tx, ty, tz), block_dim(kTileX, kThreadsY, kTileZ);
  for (size_t first = 0; first < offsets.size(); first += kMaxOffsets) {
    const int n = static_cast<int>(std::min<size_t>(kMaxOffsets, offsets.size() - first));
    cudaMemcpyToSymbolAsync(c_offsets, w.offsets.host + first, n * sizeof(int3), 0,
                            cudaMemcpyHostToDevice, 0);
    cutoff_kernel<<<grid_dim, block_dim>>>(w.bins.dev, g, w.tile_bin.dev, n, lat, cut, first > 0,
                                           potential);
  }

  // Meanwhile, the overflow atoms on the CPU; their sums are added after the kernel.
  // Overflow atoms may all lie beyond the cutoff of every lattice point: then no tile is
  // touched, and nothing is copied (CUDA refuses a copy from a buffer never allocated, even of
  // 0 bytes) or launched.
  const int touched = w.overflow.empty() ? 0 : sum_overflow(lat, cut, rc, w);
  if (touched > 0) {
    w.tiles.upload(static_cast<size_t>(touched));
    w.values.upload(static_cast<size_t>(touched) * kTilePoints);
    add_tiles_kernel<<<touched, dim3(kTileX, kTileY, kTileZ)>>>(w.tiles.dev, w.values.dev, tx, ty,
                                                                lat, potential);
  }
  cudaEventRecord(w.done, 0);
}
