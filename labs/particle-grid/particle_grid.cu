// particle-grid: your code. Implement the six functions declared in particle_grid.h.
// `gpulab run particle-grid` builds this file and checks it; handouts/particle-grid.md says more.
#include "particle_grid.h"

// TODO 0: a __device__ function that maps a particle (x, y, z) to its cell id by the rule of
// particle_grid.h: floor(x / cell) per axis, the box half open, outside particles clamped or
// sent to the extra slot ncells. All six parts use it.

// TODO 1 (part 1, the counting sort):
//   a. set cell_count to 0 (it arrives poisoned: cudaMemset);
//   b. a kernel, one thread per particle: atomicAdd(&cell_count[cell], 1) (keep what it returns:
//      it is the particle's place inside its cell);
//   c. cell_start = the exclusive scan of cell_count (ncells + 1 entries; lab 4's scan, or a
//      simple one of your own);
//   d. a kernel, one thread per particle: particle_index[cell_start[cell] + place] = particle.
void build_grid_atomic(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                       int* particle_index) {}

// TODO 2 (part 2, map - sort - find starts):
//   a. a kernel writes keys[i] = the cell id of particle i and values[i] = i;
//   b. sort the pairs by key: thrust::sort_by_key(thrust::device, keys, keys + n, values) sorts
//      device arrays in place (#include <thrust/sort.h> and <thrust/execution_policy.h>);
//   c. a kernel finds where the key changes: where keys[i - 1] < keys[i], the cells
//      keys[i - 1] + 1 .. keys[i] all start at i (empty cells start where the next non-empty one
//      does); the first and the last element need care;
//   d. cell_count[c] = cell_start[c + 1] - cell_start[c] (and n - cell_start[ncells] for the
//      outside slot).
void build_grid_sort(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                     int* particle_index) {}

// TODO 3 (part 3): one thread per particle: find its cell, loop over the cells around it (the
// grid's edges clip the loop), over each cell's particles through cell_start, cell_count and
// particle_index, and count the others that are closer than grid.cell. Rejected particles
// count -1.
void count_neighbours(const float* pos, int n, Grid grid, const int* cell_start,
                      const int* cell_count, const int* particle_index, int* neighbours) {}

// TODO 4 (part 4, the lists: count, scan, fill, as part 1's counting sort):
//   a. one thread per particle walks the cells around it as in part 3 and writes nbr_count[p],
//      the number of OTHER particles closer than grid.cell (0 for a rejected particle);
//   b. nbr_start = the exclusive scan of nbr_count (n entries): your scan of part 1, or
//      thrust::exclusive_scan(thrust::device, nbr_count, nbr_count + n, nbr_start)
//      (#include <thrust/scan.h> and <thrust/execution_policy.h>);
//   c. one thread per particle walks the same cells again and writes the index of each
//      neighbour it finds to nbr_index[nbr_start[p] + j], j = 0, 1, 2, ...: its own range, so
//      no atomics are needed.
void build_neighbour_list(const float* pos, int n, Grid grid, const int* cell_start,
                          const int* cell_count, const int* particle_index, int* nbr_count,
                          int* nbr_start, int* nbr_index, int capacity) {}

// TODO 5 (part 5, a segmented reduction): one thread per particle p adds the terms
// (1 - r^2 / R^2)^2 of the neighbours nbr_index[nbr_start[p]] .. nbr_index[nbr_start[p] +
// nbr_count[p] - 1] and writes energy[p]. Then make the lengths matter less: a warp (or a few
// lanes) per particle, its lanes striding through the list and their sums added with
// __shfl_down_sync.
void energy_from_list(const float* pos, int n, float cutoff, const int* nbr_start,
                      const int* nbr_count, const int* nbr_index, float* energy) {}

// TODO 6 (part 6): one thread per particle walks the cells around it as in part 3 and adds the
// term (1 - r^2 / R^2)^2 of every OTHER particle closer than grid.cell; a rejected particle
// writes 0.
void energy_from_cells(const float* pos, int n, Grid grid, const int* cell_start,
                       const int* cell_count, const int* particle_index, float* energy) {}
