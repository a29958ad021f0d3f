// A correct particle grid of another shape than the reference's, written as a student might:
//  - atomic: count with atomicAdd, a shuffle-based scan of the counts (1024-count tiles, scan
//    then add the scanned tile totals), then a second pass that recomputes each particle's cell
//    and takes its place from an atomic cursor per cell (a copy of the starts);
//  - sort: Thrust's sort_by_key (on both backends), then one thread per cell finds its start and
//    end by binary search in the sorted keys;
//  - neighbours: one thread per particle in input order over the 27 cells around it, reading
//    positions through particle_index, the distance compared with sqrtf;
//  - neighbour lists: the same walk to count, the shuffle scan above for the starts, the walk
//    again to fill each particle's own range;
//  - energy from lists: one thread per particle, its list added backwards, each term through
//    sqrtf (1 - (r / R)^2, rounded where the reference's is exact);
//  - energy from cells: the same walk in input order, each term as (R^2 - r^2)^2 / R^4;
// scratch allocated and freed in every call.
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include "particle_grid.h"

namespace {

constexpr int kBlock = 256;
constexpr int kScanTile = 1024;

__device__ bool cell_of(const float* pos, int i, Grid g, int& cx, int& cy, int& cz) {
  cx = static_cast<int>(floorf(pos[4 * i] / g.cell));
  cy = static_cast<int>(floorf(pos[4 * i + 1] / g.cell));
  cz = static_cast<int>(floorf(pos[4 * i + 2] / g.cell));
  const bool outside = cx < 0 || cy < 0 || cz < 0 || cx >= g.nx || cy >= g.ny || cz >= g.nz;
  cx = cx < 0 ? 0 : (cx >= g.nx ? g.nx - 1 : cx);
  cy = cy < 0 ? 0 : (cy >= g.ny ? g.ny - 1 : cy);
  cz = cz < 0 ? 0 : (cz >= g.nz ? g.nz - 1 : cz);
  return !outside;
}

__device__ int cell_id(const float* pos, int i, Grid g) {
  int cx, cy, cz;
  if (!cell_of(pos, i, g, cx, cy, cz) && g.reject_outside) return g.nx * g.ny * g.nz;
  return cx + g.nx * (cy + g.ny * cz);
}

__global__ void count_kernel(const float* pos, int n, Grid g, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&count[cell_id(pos, i, g)], 1);
}

// Inclusive scan of one 1024-item tile per block with warp shuffles; writes the exclusive
// result and the tile's total.
__global__ void scan_tiles(const int* in, int* out, int m, int* totals) {
  __shared__ int warp_total[32];
  const int i = blockIdx.x * kScanTile + threadIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int x = i < m ? in[i] : 0;
  int v = x;
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) warp_total[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int w = warp_total[lane];
    for (int d = 1; d < 32; d *= 2) {
      const int up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += up;
    }
    warp_total[lane] = w;
  }
  __syncthreads();
  const int inclusive = v + (warp > 0 ? warp_total[warp - 1] : 0);
  if (i < m) out[i] = inclusive - x;
  if (threadIdx.x == kScanTile - 1 && totals) totals[blockIdx.x] = inclusive;
}

__global__ void add_carries(int* out, int m, const int* scanned_totals) {
  const int i = blockIdx.x * kScanTile + threadIdx.x;
  if (i < m) out[i] += scanned_totals[blockIdx.x];
}

void exclusive_scan(const int* in, int* out, int m) {
  const int tiles = (m + kScanTile - 1) / kScanTile;
  if (tiles == 1) {
    scan_tiles<<<1, kScanTile>>>(in, out, m, nullptr);
    return;
  }
  int *totals = nullptr, *scanned = nullptr;
  cudaMalloc(&totals, tiles * sizeof(int));
  cudaMalloc(&scanned, tiles * sizeof(int));
  scan_tiles<<<tiles, kScanTile>>>(in, out, m, totals);
  exclusive_scan(totals, scanned, tiles);
  add_carries<<<tiles, kScanTile>>>(out, m, scanned);
  cudaFree(totals);
  cudaFree(scanned);
}

__global__ void scatter_kernel(const float* pos, int n, Grid g, int* cursor, int* index) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) index[atomicAdd(&cursor[cell_id(pos, i, g)], 1)] = i;
}

__global__ void keys_kernel(const float* pos, int n, Grid g, int* keys, int* values) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    keys[i] = cell_id(pos, i, g);
    values[i] = i;
  }
}

// The first sorted position whose key is >= c.
__device__ int lower_bound(const int* keys, int n, int c) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (keys[mid] < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__global__ void starts_by_search(const int* keys, int n, int slots, int* start, int* count) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= slots) return;
  const int s = lower_bound(keys, n, c);
  start[c] = s;
  count[c] = lower_bound(keys, n, c + 1) - s;
}

// visit(q, r) for each neighbour q of particle p at distance r; false for a rejected p.
template <class Visit>
__device__ bool each_neighbour(const float* pos, int p, Grid g, const int* start, const int* count,
                               const int* index, Visit visit) {
  int cx, cy, cz;
  if (!cell_of(pos, p, g, cx, cy, cz) && g.reject_outside) return false;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = cx + dx, y = cy + dy, z = cz + dz;
        if (x < 0 || y < 0 || z < 0 || x >= g.nx || y >= g.ny || z >= g.nz) continue;
        const int c = x + g.nx * (y + g.ny * z);
        for (int k = start[c]; k < start[c] + count[c]; ++k) {
          const int q = index[k];
          if (q == p) continue;
          const float ex = pos[4 * q] - pos[4 * p], ey = pos[4 * q + 1] - pos[4 * p + 1],
                      ez = pos[4 * q + 2] - pos[4 * p + 2];
          const float r = sqrtf(ex * ex + ey * ey + ez * ez);
          if (r < g.cell) visit(q, r);
        }
      }
  return true;
}

__global__ void neighbours_kernel(const float* pos, int n, Grid g, const int* start,
                                  const int* count, const int* index, int* neighbours) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int found = 0;
  const bool inside = each_neighbour(pos, p, g, start, count, index, [&](int, float) { ++found; });
  neighbours[p] = inside ? found : -1;
}

__global__ void list_count_kernel(const float* pos, int n, Grid g, const int* start,
                                  const int* count, const int* index, int* nbr_count) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int found = 0;
  each_neighbour(pos, p, g, start, count, index, [&](int, float) { ++found; });
  nbr_count[p] = found;
}

__global__ void list_fill_kernel(const float* pos, int n, Grid g, const int* start,
                                 const int* count, const int* index, const int* nbr_start,
                                 int* nbr_index) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int* out = nbr_index + nbr_start[p];
  each_neighbour(pos, p, g, start, count, index, [&](int q, float) { *out++ = q; });
}

__global__ void energy_list_kernel(const float* pos, int n, float cutoff, const int* nbr_start,
                                   const int* nbr_count, const int* nbr_index, float* energy) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float e = 0.0f;
  for (int k = nbr_start[p] + nbr_count[p] - 1; k >= nbr_start[p]; --k) {
    const int q = nbr_index[k];
    const float ex = pos[4 * q] - pos[4 * p], ey = pos[4 * q + 1] - pos[4 * p + 1],
                ez = pos[4 * q + 2] - pos[4 * p + 2];
    const float s = sqrtf(ex * ex + ey * ey + ez * ez) / cutoff;
    e += (1.0f - s * s) * (1.0f - s * s);
  }
  energy[p] = e;
}

__global__ void energy_cells_kernel(const float* pos, int n, Grid g, const int* start,
                                    const int* count, const int* index, float* energy) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  const float r2 = g.cell * g.cell;
  float e = 0.0f;
  each_neighbour(pos, p, g, start, count, index, [&](int, float r) {
    const float w = r2 - r * r;
    e += w * w / (r2 * r2);
  });
  energy[p] = e;
}

int blocks(int items) {
  return (items + kBlock - 1) / kBlock;
}

}  // namespace

void build_grid_atomic(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                       int* particle_index) {
  const int slots = grid.nx * grid.ny * grid.nz + 1;
  cudaMemset(cell_count, 0, slots * sizeof(int));
  count_kernel<<<blocks(n), kBlock>>>(pos, n, grid, cell_count);
  exclusive_scan(cell_count, cell_start, slots);
  int* cursor = nullptr;
  cudaMalloc(&cursor, slots * sizeof(int));
  cudaMemcpy(cursor, cell_start, slots * sizeof(int), cudaMemcpyDeviceToDevice);
  scatter_kernel<<<blocks(n), kBlock>>>(pos, n, grid, cursor, particle_index);
  cudaFree(cursor);
}

void build_grid_sort(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                     int* particle_index) {
  const int slots = grid.nx * grid.ny * grid.nz + 1;
  int* keys = nullptr;
  cudaMalloc(&keys, n * sizeof(int));
  keys_kernel<<<blocks(n), kBlock>>>(pos, n, grid, keys, particle_index);
  thrust::sort_by_key(thrust::device, keys, keys + n, particle_index);
  starts_by_search<<<blocks(slots), kBlock>>>(keys, n, slots, cell_start, cell_count);
  cudaFree(keys);
}

void count_neighbours(const float* pos, int n, Grid grid, const int* cell_start,
                      const int* cell_count, const int* particle_index, int* neighbours) {
  neighbours_kernel<<<blocks(n), kBlock>>>(pos, n, grid, cell_start, cell_count, particle_index,
                                           neighbours);
}

void build_neighbour_list(const float* pos, int n, Grid grid, const int* cell_start,
                          const int* cell_count, const int* particle_index, int* nbr_count,
                          int* nbr_start, int* nbr_index, int capacity) {
  list_count_kernel<<<blocks(n), kBlock>>>(pos, n, grid, cell_start, cell_count, particle_index,
                                           nbr_count);
  exclusive_scan(nbr_count, nbr_start, n);
  if (capacity > 0)
    list_fill_kernel<<<blocks(n), kBlock>>>(pos, n, grid, cell_start, cell_count, particle_index,
                                            nbr_start, nbr_index);
}

void energy_from_list(const float* pos, int n, float cutoff, const int* nbr_start,
                      const int* nbr_count, const int* nbr_index, float* energy) {
  energy_list_kernel<<<blocks(n), kBlock>>>(pos, n, cutoff, nbr_start, nbr_count, nbr_index,
                                            energy);
}

void energy_from_cells(const float* pos, int n, Grid grid, const int* cell_start,
                       const int* cell_count, const int* particle_index, float* energy) {
  energy_cells_kernel<<<blocks(n), kBlock>>>(pos, n, grid, cell_start, cell_count, particle_index,
                                             energy);
}
