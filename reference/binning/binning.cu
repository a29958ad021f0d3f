// binning reference solution (hidden from students): the bar their times are scored against.
//
// The CPU sorts the atoms into bins of fixed capacity (the rest into an overflow list) and
// builds the list of neighbour-bin offsets; the GPU sums, per tile of lattice points, the atoms
// of the neighbour bins; meanwhile the CPU sums the overflow atoms into the tiles they reach,
// which a second kernel adds at the end.
//
// Refinements of the handout's design, all for speed (docs/PERF.md): the bins are stored
// packed, each bin's atoms (at most `capacity`) one after the other in bin order with a start
// index per bin, rather than as `capacity` slots per bin with a marker; the CPU decides each
// atom's bin and slot and the GPU moves the atoms there; a block stages only the atoms within
// the cutoff of its tile's box; and a thread skips an atom unless it is within the cutoff of
// the segment its points lie on.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "binning.h"

namespace {

// ---- Tuning knobs ----
// A block computes a tile of kTileX x kTileY x kTileZ lattice points; each thread computes
// kCoarseY of them along y, kThreadsY apart, so that one cylinder test (the atom's distance to
// the thread's line of points) serves all of them. docs/PERF.md has the shapes tried on the
// H100 (box-large, B = 4 Å = 8 h, the lab's flags: -ftz=true makes it about 15% faster).
constexpr int kTileX = 8, kTileY = 8, kTileZ = 8;
constexpr int kCoarseY = 8;
constexpr int kThreadsY = kTileY / kCoarseY;
constexpr int kBlockThreads = kTileX * kThreadsY * kTileZ;
constexpr int kTilePoints = kTileX * kTileY * kTileZ;
constexpr int kWarps = kBlockThreads / 32;
constexpr int kStageSlots = 512;                  // atoms staged in shared memory at a time (8 KB)
constexpr int kWarpSlots = kStageSlots / kWarps;  // each warp stages into its own part
constexpr int kMaxOffsets = 4096;  // neighbour offsets per launch (48 KB of constant memory)
// Blocks per multiprocessor the kernel is compiled for: 24 holds it to 40 registers (56
// otherwise); with dy as one fma (below) box-large's kernel went from 4.40 ms to 3.94.
constexpr int kMinBlocks = 24;
static_assert(kTileY % kCoarseY == 0, "kCoarseY must divide kTileY");
static_assert(kBlockThreads % 32 == 0, "the block is whole warps");

__constant__ int3 c_offsets[kMaxOffsets];

// Bins: a box of nx x ny x nz cubes of side `size` from `origin`, each holding at most
// `capacity` atoms (x, y, z, q). Bin b's atoms are atoms[start[b] .. start[b + 1]) of one packed
// array, bin after bin, x fastest.
struct BinGrid {
  float3 origin;
  float size, inv_size;
  int nx, ny, nz, capacity;
};

struct Cutoff {
  float rc2, inv_rc2;
};

__host__ __device__ inline float smoothed(float q, float r2, Cutoff c, float inv_r) {
  // 0 at and beyond the cutoff. A select, not fmaxf: in host code fmaxf is a call, which keeps
  // the compiler from vectorising the overflow's loop (about twice as slow on the H100's host).
  const float t = 1.0f - r2 * c.inv_rc2;
  const float s = t > 0.0f ? t : 0.0f;
  return q * inv_r * s * s;
}

// One block per tile. `tile_bin` holds each tile's base bin along x, then y, then z (the bin of
// its first point); the offsets are relative to it. With `accumulate`, adds to the potential
// (a neighbourhood longer than kMaxOffsets takes several launches).
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks)
    cutoff_kernel(const float4* __restrict__ atoms, const int* __restrict__ bin_start, BinGrid grid,
                  const int* __restrict__ tile_bin, int n_offsets, CutoffLattice lat, Cutoff cut,
                  bool accumulate, float* __restrict__ potential) {
  __shared__ float4 stage[kStageSlots];
  __shared__ int staged[kWarps];  // how many atoms each warp's part of the stage holds
  const int tid = (threadIdx.z * kThreadsY + threadIdx.y) * kTileX + threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int i = blockIdx.x * kTileX + threadIdx.x;
  const int k = blockIdx.z * kTileZ + threadIdx.z;
  const int j0 = blockIdx.y * kTileY + threadIdx.y;
  const float x = i * lat.h, z = k * lat.h;
  // Point m is at y0 + m * y_step; its dy is one fma from the atom's dy0 (within an ulp or two
  // of the product, and no array of y values holds registers).
  const float y0 = j0 * lat.h, y_step = kThreadsY * lat.h;
  float v[kCoarseY];
#pragma unroll
  for (int m = 0; m < kCoarseY; ++m) v[m] = 0.0f;
  // The thread's points lie on a segment along y: its middle and half length.
  const float y_last = (j0 + (kCoarseY - 1) * kThreadsY) * lat.h;
  const float y_mid = 0.5f * (y0 + y_last), y_half = 0.5f * (y_last - y0);
  // The box of the tile's points (those past the lattice's edge included: they are computed).
  const float3 lo = make_float3(blockIdx.x * kTileX * lat.h, blockIdx.y * kTileY * lat.h,
                                blockIdx.z * kTileZ * lat.h);
  const float3 hi = make_float3((blockIdx.x * kTileX + kTileX - 1) * lat.h,
                                (blockIdx.y * kTileY + kTileY - 1) * lat.h,
                                (blockIdx.z * kTileZ + kTileZ - 1) * lat.h);
  const int bx = tile_bin[blockIdx.x];
  const int by = tile_bin[gridDim.x + blockIdx.y];
  const int bz = tile_bin[gridDim.x + gridDim.y + blockIdx.z];
  // A batch gives each warp as many bins as its part of the stage holds when they are full.
  const int bins_per_batch = kWarps * (kWarpSlots / grid.capacity);

  for (int first = 0; first < n_offsets; first += bins_per_batch) {
    const int last = min(first + bins_per_batch, n_offsets);
    __syncthreads();  // every thread is done with the previous stage's atoms
    // Warp w stages bins first + w, first + w + kWarps, ...: of their atoms, those within the
    // cutoff of the tile's box (60% of them on box-large), packed with a ballot into the warp's
    // own part, so the order is the same on every run.
    float4* part = stage + warp * kWarpSlots;
    int n_part = 0;
    for (int b = first + warp; b < last; b += kWarps) {
      const int3 d = c_offsets[b];
      const int cx = bx + d.x, cy = by + d.y, cz = bz + d.z;
      if (cx < 0 || cx >= grid.nx || cy < 0 || cy >= grid.ny || cz < 0 || cz >= grid.nz)
        continue;  // outside the grid: an empty bin
      const int bin = (cz * grid.ny + cy) * grid.nx + cx;
      const int begin = bin_start[bin], size = bin_start[bin + 1] - begin;
      for (int s0 = 0; s0 < size; s0 += 32) {
        float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        bool keep = false;
        if (s0 + lane < size) {
          a = atoms[begin + s0 + lane];
          const float gx = fmaxf(fmaxf(lo.x - a.x, a.x - hi.x), 0.0f);
          const float gy = fmaxf(fmaxf(lo.y - a.y, a.y - hi.y), 0.0f);
          const float gz = fmaxf(fmaxf(lo.z - a.z, a.z - hi.z), 0.0f);
          keep = gx * gx + gy * gy + gz * gz < cut.rc2;
        }
        const unsigned kept = __ballot_sync(0xffffffffu, keep);
        if (keep) part[n_part + __popc(kept & ((1u << lane) - 1u))] = a;
        n_part += __popc(kept);
      }
    }
    if (lane == 0) staged[warp] = n_part;
    __syncthreads();
    for (int w = 0; w < kWarps; ++w) {
      const float4* atoms_w = stage + w * kWarpSlots;
      const int n_w = staged[w];
      for (int s = 0; s < n_w; ++s) {
        const float4 a = atoms_w[s];
        const float dx = x - a.x, dz = z - a.z;
        const float dxz2 = dx * dx + dz * dz;
        if (dxz2 >= cut.rc2) continue;  // cylinder test: no point of this thread is in reach
        // Segment test: the atom's distance to the nearest point of the segment. Of the atoms
        // in the cylinder, a sixth are beyond the cutoff of every point of a segment of 3.5 Å
        // (box-large); of the pairs left, 82% are within the cutoff.
        const float gap = fmaxf(fabsf(a.y - y_mid) - y_half, 0.0f);
        if (dxz2 + gap * gap >= cut.rc2) continue;
        const float dy0 = y0 - a.y;
#pragma unroll
        for (int m = 0; m < kCoarseY; ++m) {
          const float dy = fmaf(static_cast<float>(m), y_step, dy0);
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

// Moves each binned atom to its slot, rank[a] in its bin atom_bin[a] (-1 for an atom that is
// not binned: beyond the cutoff of every point, no charge, or in the overflow).
__global__ void place_atoms(const float4* __restrict__ input, const int* __restrict__ atom_bin,
                            const int* __restrict__ rank, int n_atoms,
                            const int* __restrict__ bin_start, float4* __restrict__ atoms) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n_atoms) return;
  const int bin = atom_bin[a];
  if (bin >= 0) atoms[bin_start[bin] + rank[a]] = input[a];
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
  }
  void upload(size_t n, cudaStream_t stream = 0) {
    cudaMemcpyAsync(dev, host, n * sizeof(T), cudaMemcpyHostToDevice, stream);
  }
};

struct Workspace {
  Mirror<float4> input;        // the atoms as given (the device side is read by place_atoms)
  Mirror<int> atom_bin, rank;  // each atom's bin (-1: not binned) and its rank there
  Mirror<float4> atoms;        // the binned atoms, packed bin after bin (only the device side)
  Mirror<int> bin_start, tile_bin, tiles;
  Mirror<float> values;
  Mirror<int3> offsets;  // only the host side is used (it is copied to constant memory)
  std::vector<int> count, tile_slot;
  std::vector<float> row;  // one row of an overflow atom's terms
  std::vector<float4> overflow;
  cudaEvent_t done = nullptr;  // after the last copy of the previous call
  // The overflow's copy runs beside the kernel (a stream that does not wait for the default
  // one: 4 MB for box-large, 0.16 ms), and the default stream waits for it before adding.
  cudaStream_t side = nullptr;
  cudaEvent_t copied = nullptr;
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
// 341 bins (a grid starting half a bin off gives 348 with the list below; the first
// reference's list, before it, had 438).
BinGrid make_grid(CutoffLattice lat, CutoffParams params) {
  BinGrid g;
  const float pad = std::ceil(params.cutoff / params.bin_size) * params.bin_size;
  g.origin = make_float3(-pad, -pad, -pad);
  g.size = params.bin_size;
  g.inv_size = 1.0f / params.bin_size;
  g.nx = static_cast<int>(((lat.nx - 1) * lat.h + 2 * pad) * g.inv_size) + 1;
  g.ny = static_cast<int>(((lat.ny - 1) * lat.h + 2 * pad) * g.inv_size) + 1;
  g.nz = static_cast<int>(((lat.nz - 1) * lat.h + 2 * pad) * g.inv_size) + 1;
  g.capacity = std::min(params.bin_capacity, kWarpSlots);  // more atoms go to the overflow
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

// Bins the atoms: each atom's bin and its rank there (in input order), the start of every bin
// in the packed array (a bin keeps at most `capacity` atoms), and the overflow list. The GPU
// then moves the atoms to their slots (place_atoms): on the H100's host, scattering them here
// cost about 18 ns per atom, 2 ms for box-large, on the critical path (docs/PERF.md).
void bin_atoms(const float* atoms, int n_atoms, const BinGrid& g, Workspace& w) {
  const size_t n = static_cast<size_t>(n_atoms);
  const size_t n_bins = static_cast<size_t>(g.nx) * g.ny * g.nz;
  w.input.reserve(std::max<size_t>(n, 1));
  w.atom_bin.reserve(std::max<size_t>(n, 1));
  w.rank.reserve(std::max<size_t>(n, 1));
  w.bin_start.reserve(n_bins + 1);
  std::memcpy(w.input.host, atoms, n * sizeof(float4));
  int* bin = w.atom_bin.host;
  int* rank = w.rank.host;
  // Each atom's bin, -1 beyond the cutoff of every lattice point or with no charge: no
  // branches, so the compiler vectorises this loop.
  // (Locals, not g's fields: stores to bin[] might change those as far as the compiler knows.)
  const int nx = g.nx, ny = g.ny;
  const float fx = static_cast<float>(g.nx), fy = static_cast<float>(g.ny),
              fz = static_cast<float>(g.nz);
  const float ox = g.origin.x, oy = g.origin.y, oz = g.origin.z, inv = g.inv_size;
  for (size_t a = 0; a < n; ++a) {
    const float* p = atoms + 4 * a;
    const float u = (p[0] - ox) * inv, v = (p[1] - oy) * inv, s = (p[2] - oz) * inv;
    const bool in = (u >= 0) & (u < fx) & (v >= 0) & (v < fy) & (s >= 0) & (s < fz) & (p[3] != 0);
    bin[a] = in ? (static_cast<int>(s) * ny + static_cast<int>(v)) * nx + static_cast<int>(u) : -1;
  }
  // Each atom's rank in its bin, in input order; past the capacity, the overflow.
  w.count.assign(n_bins, 0);
  w.overflow.clear();
  for (size_t a = 0; a < n; ++a) {
    if (bin[a] < 0) continue;
    const int r = w.count[static_cast<size_t>(bin[a])]++;
    if (r < g.capacity) {
      rank[a] = r;
    } else {
      bin[a] = -1;  // the bin is full
      w.overflow.push_back(w.input.host[a]);
    }
  }
  int* start = w.bin_start.host;
  int at = 0;
  for (size_t b = 0; b < n_bins; ++b) {
    start[b] = at;
    at += std::min(w.count[b], g.capacity);
  }
  start[n_bins] = at;
  w.atoms.reserve(static_cast<size_t>(std::max(at, 1)));
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
  for (size_t t = 0; t < w.tile_slot.size(); ++t)
    if (w.tile_slot[t] >= 0) w.tiles.host[w.tile_slot[t]] = static_cast<int>(t);
  const size_t n_values = static_cast<size_t>(touched) * kTilePoints;
  std::fill(w.values.host, w.values.host + n_values, 0.0f);
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
        // terms first, in a tight loop; then into the tiles they belong to, a tile at a time.
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
        for (int i = ia; i <= ib;) {
          const int tile = i / kTileX, tile_end = std::min(ib + 1, (tile + 1) * kTileX);
          float* out = w.values.host +
                       static_cast<size_t>(w.tile_slot[tile_row + tile]) * kTilePoints + local_row;
          for (; i < tile_end; ++i) out[i % kTileX] += row[i];
        }
      }
    }
  }
  return touched;
}

}  // namespace

void cutoff_potential(const float* atoms, int n_atoms, CutoffLattice lat, CutoffParams params,
                      float* potential) {
  static Workspace w;
  if (!w.done) {
    cudaEventCreateWithFlags(&w.done, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&w.copied, cudaEventDisableTiming);
    cudaStreamCreateWithFlags(&w.side, cudaStreamNonBlocking);
  }
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

  // The GPU part, launched without waiting for it: the atoms into their slots, then the sums.
  const size_t n_bins = static_cast<size_t>(g.nx) * g.ny * g.nz;
  w.bin_start.upload(n_bins + 1);
  if (n_atoms > 0) {
    w.input.upload(static_cast<size_t>(n_atoms));
    w.atom_bin.upload(static_cast<size_t>(n_atoms));
    w.rank.upload(static_cast<size_t>(n_atoms));
    place_atoms<<<(n_atoms + 255) / 256, 256>>>(w.input.dev, w.atom_bin.dev, w.rank.dev, n_atoms,
                                                w.bin_start.dev, w.atoms.dev);
  }
  w.tile_bin.upload(static_cast<size_t>(tx + ty + tz));
  const dim3 grid_dim(tx, ty, tz), block_dim(kTileX, kThreadsY, kTileZ);
  for (size_t first = 0; first < offsets.size(); first += kMaxOffsets) {
    const int n = static_cast<int>(std::min<size_t>(kMaxOffsets, offsets.size() - first));
    cudaMemcpyToSymbolAsync(c_offsets, w.offsets.host + first, n * sizeof(int3), 0,
                            cudaMemcpyHostToDevice, 0);
    cutoff_kernel<<<grid_dim, block_dim>>>(w.atoms.dev, w.bin_start.dev, g, w.tile_bin.dev, n, lat,
                                           cut, first > 0, potential);
  }

  // Meanwhile, the overflow atoms on the CPU; their sums are added after the kernel.
  // Overflow atoms may all lie beyond the cutoff of every lattice point: then no tile is
  // touched, and nothing is copied (CUDA refuses a copy from a buffer never allocated, even of
  // 0 bytes) or launched.
  const int touched = w.overflow.empty() ? 0 : sum_overflow(lat, cut, rc, w);
  if (touched > 0) {
    w.tiles.upload(static_cast<size_t>(touched), w.side);
    w.values.upload(static_cast<size_t>(touched) * kTilePoints, w.side);
    cudaEventRecord(w.copied, w.side);
    cudaStreamWaitEvent(0, w.copied, 0);
    add_tiles_kernel<<<touched, dim3(kTileX, kTileY, kTileZ)>>>(w.tiles.dev, w.values.dev, tx, ty,
                                                                lat, potential);
  }
  cudaEventRecord(w.done, 0);
}
