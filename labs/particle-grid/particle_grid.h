// particle-grid: the functions you implement, in particle_grid.cu. Do not change this file: the
// grader builds your particle_grid.cu against its own copy.
//
// Particles in a box are put in a uniform grid of cubic cells, so that the particles near one
// particle are found by looking in a few cells instead of at every particle.
//
// THE GRID. The box starts at the origin (0, 0, 0) and has nx * ny * nz cells of side `cell`.
// The cell of a particle at (x, y, z) has the coordinates
//
//     cx = floor(x / cell),  cy = floor(y / cell),  cz = floor(z / cell)
//
// and the id  (cz * ny + cy) * nx + cx  (x fastest). So a particle exactly on a boundary between
// two cells belongs to the cell above it (x = 2 * cell is in cx = 2), and the box is half open:
// a particle with x < 0 or x >= nx * cell (the upper face itself included), and likewise in y
// and z, is OUTSIDE. nz == 1 is a 2-D grid: every particle then has z = 0 in the datasets. Let
// ncells = nx * ny * nz. An outside particle is never dropped; the grid says what happens to it:
//   - reject_outside == 0 (clamp): each coordinate is clamped to [0, n - 1] (cx to [0, nx - 1],
//     and so on), so the particle joins the nearest edge cell;
//   - reject_outside == 1 (reject): the particle is in no cell. It goes to one extra slot after
//     the last cell, id ncells, which the cell arrays below have in both policies.
//
// THE OUTPUT of a build, three device arrays:
//   cell_count[c]      the number of particles in cell c, for c = 0 .. ncells (ncells + 1
//                      entries: the last is the outside slot, 0 under clamp);
//   cell_start[c]      cell_count[0] + ... + cell_count[c - 1]: the exclusive scan of the
//                      counts, also ncells + 1 entries (cell_start[0] = 0; an empty cell starts
//                      where the next non-empty one does, or at n);
//   particle_index[k]  for k = 0 .. n-1, the particle indices ordered by cell: the particles of
//                      cell c are particle_index[cell_start[c]] .. particle_index[cell_start[c]
//                      + cell_count[c] - 1]. Every particle appears exactly once. The ORDER
//                      INSIDE A CELL IS FREE: the grader compares each cell's particles as a set.
//
// EXACTNESS. Every coordinate in the datasets is a multiple of 1/16 (an integer k / 16), the
// box is at most 128 units long per axis, and `cell` is a power of two (1 or 1/2 in the
// datasets). So x / cell and x * (1 / cell) are exact in float32 and floor gives the same cell
// both ways; and a difference of coordinates and a squared distance dx*dx + dy*dy + dz*dz below
// a few cell sides squared is exact in float32, in any order of the adds and with or without
// fused multiply-adds (a larger one may round, but never down to below cell * cell). Every result
// of parts 1 to 4 is an integer, and the grader compares it exactly; the energy of parts 5 and 6
// is a float sum, compared with a tolerance (THE ENERGY, below).
//
// THE POINTERS. `pos` holds n particles as four floats each (x, y, z, w; w is unused), 16-byte
// aligned, so you may read them as float4. All pointers are DEVICE pointers (cudaMalloc'd), and
// the inputs (`pos`, and the grid and the lists given to parts 3 to 6) must not be changed.
// Every output arrives filled with a poison value: every element must be written (cell_count
// too: it does not arrive zeroed), and nothing outside the array. Scratch memory is yours to
// allocate; keeping it between calls (in statics) saves the time of cudaMalloc in timed runs.
// On return the work may still be running on the GPU in the default stream (the grader
// synchronizes the device before it reads the outputs), but nothing may be left to do on the
// CPU.
#pragma once

struct Grid {
  int nx, ny, nz;      // cells along x, y and z (nz == 1: a 2-D grid)
  float cell;          // the side of a cell, a power of two; also the neighbour radius R
  int reject_outside;  // 0: clamp outside particles into the nearest edge cell; 1: reject them
                       // into the extra slot ncells
};

// n >= 1 particles (2^24 and more on the GPU, in up to 2^23 cells).

// Part 1, atomic: the counting sort. Count the particles of each cell with atomicAdd, scan the
// counts (exclusive) into cell_start, then scatter each particle's index to its cell's range,
// its place taken from an atomic cursor per cell (or from the value atomicAdd returned while
// counting).
void build_grid_atomic(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                       int* particle_index);

// Part 2, sort: the data-parallel build. Map each particle to its cell id (a key) and its index
// (a value), sort the pairs by key (Thrust's thrust::sort_by_key is allowed here), then find each
// cell's start where the key changes from one sorted element to the next, and derive the
// counts, all in data-parallel kernels: no atomics needed.
void build_grid_sort(const float* pos, int n, Grid grid, int* cell_start, int* cell_count,
                     int* particle_index);

// Part 3, neighbours: for every particle p, neighbours[p] = the number of OTHER particles q with
// |pos[q] - pos[p]| < cell (strictly; in 3-D, and in the plane z = 0 when nz == 1), found by
// looking only in p's cell and the cells next to it (27 in 3-D, 9 in 2-D, fewer at the box's
// edges). A rejected particle (in the outside slot) gets -1 and is nobody's neighbour; under
// clamp, an outside particle is counted from its (clamped) cell like any other. The grid is
// given, built by the grader (a correct one, whatever your parts 1 and 2 do): cell_start,
// cell_count (ncells + 1 entries each) and particle_index (n) as described above.
void count_neighbours(const float* pos, int n, Grid grid, const int* cell_start,
                      const int* cell_count, const int* particle_index, int* neighbours);

// NEIGHBOUR LISTS. The neighbours of p are those of part 3: the other particles q with
// |pos[q] - pos[p]| < cell; a rejected particle has none (here its count is 0, not -1) and is
// nobody's neighbour. Part 4 writes them in CSR form (compressed sparse rows, the grid's own
// layout), three device arrays:
//   nbr_count[p]   the number of neighbours of p, for p = 0 .. n-1;
//   nbr_start[p]   nbr_count[0] + ... + nbr_count[p - 1]: the exclusive scan of the counts, also
//                  n entries (nbr_start[0] = 0), so that the lists of p = 0, 1, 2, ... follow
//                  each other in nbr_index with no gap;
//   nbr_index[k]   the neighbours' indices: p's are nbr_index[nbr_start[p]] .. nbr_index[
//                  nbr_start[p] + nbr_count[p] - 1]. `capacity`, its size, is the total of the
//                  counts exactly (below 2^31). The ORDER INSIDE A LIST IS FREE: the grader
//                  compares each particle's list as a set.
//
// THE ENERGY of particle p, a smooth cutoff potential over its neighbours (R = cell):
//
//     energy[p] = sum over the neighbours q of p of (1 - r^2 / R^2)^2,   r = |pos[q] - pos[p]|
//
// (0 for a particle without neighbours, rejected ones included). By EXACTNESS above, r^2 < R^2
// is decided exactly, and a term computed as t = 1 - r2 / R2 (or r2 * (1 / R2): R^2 is a power of
// two), then t * t, is exact in float32; only the adds round, so any order of them is fine. The
// grader allows |energy[p] - expected| <= 8 u sqrt(m) M, with u = 2^-24, m the
// number of neighbours of p and M = the sum of (1 + r^2 / R^2)^2 over them: the terms with every
// operand made positive, which also covers a term computed another way (through sqrtf, say),
// whose error is absolute, not relative to its tiny value near the cutoff. With no neighbours
// the energy must be exactly 0.

// Part 4, neighbour-list: the neighbour lists of every particle, in the three steps of part 1's
// counting sort: count each particle's neighbours over the grid as part 3 does, into nbr_count;
// scan the counts (exclusive) into nbr_start (thrust::exclusive_scan(thrust::device, ...) is
// allowed here); walk the cells again and write each neighbour's index into the particle's own
// range nbr_index[nbr_start[p] ..]. The grid is given, as in part 3 (a correct one).
void build_neighbour_list(const float* pos, int n, Grid grid, const int* cell_start,
                          const int* cell_count, const int* particle_index, int* nbr_count,
                          int* nbr_start, int* nbr_index, int capacity);

// Part 5, energy-list: energy[p] = THE ENERGY above, from given neighbour lists (correct ones,
// built by the grader, laid out as part 4's: nbr_start, nbr_count with n entries each, nbr_index
// with their total), with R = cutoff (= the grid's cell). A segmented reduction: each list is a
// segment, and its sum is the particle's energy.
void energy_from_list(const float* pos, int n, float cutoff, const int* nbr_start,
                      const int* nbr_count, const int* nbr_index, float* energy);

// Part 6, energy-cells: the same energy with no lists: for each particle, walk its cell and the
// cells next to it as part 3 does, and add the term of every neighbour found. The grid is given,
// as in part 3.
void energy_from_cells(const float* pos, int n, Grid grid, const int* cell_start,
                       const int* cell_count, const int* particle_index, float* energy);
