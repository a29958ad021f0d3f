// particle-grid: your code. Implement the three functions declared in particle_grid.h.
// `gpulab run particle-grid` builds this file and checks it; handouts/particle-grid.md says more.
#include "particle_grid.h"

// TODO 0: a __device__ function that maps a particle (x, y, z) to its cell id by the rule of
// particle_grid.h: floor(x / cell) per axis, the box half open, outside particles clamped or
// sent to the extra slot ncells. All three parts use it.

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
