// A submission that does not compile: a missing semicolon and an undeclared name.
#include "particle_grid.h"

// clang-format off
__global__ void count_kernel(const float* pos, int n, Grid g, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) atomicAdd(&count[cell_of(pos[4 * i])], 1);
}

void build_grid_atomic(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                       int* particle_index) {
  count_kernel<<<(n + 255) / 256, 256>>>(pos, n, grid, cell_count);
}

void build_grid_sort(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                     int* particle_index) {}

void count_neighbours(const float* pos, int n, Grid grid, const int* cell_start,
                      const int* cell_count, const int* particle_index, int* neighbours) {}
// clang-format on
