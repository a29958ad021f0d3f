// scatter-gather: the functions you implement, in dcs.cu. Do not change this file: the grader
// builds your dcs.cu against its own copy.
//
// Direct Coulomb summation: the potential at lattice point (i, j, k), which sits at
// (x, y, z) = (i*h, j*h, k*h), is
//
//     V[k][j][i] = sum over atoms a of  q_a / sqrt((x - x_a)^2 + (y - y_a)^2 + (z - z_a)^2)
//
// Compute each coordinate as the float product `i * h` (not by adding h repeatedly), as the
// grader's fp64 oracle does.
#pragma once

struct Lattice {
  int nx, ny, nz;  // lattice points along x, y, z; the output is [nz][ny][nx], x fastest
  float h;         // lattice spacing
};

// Every function receives `atoms` as n_atoms records of four floats (x, y, z, q): 16-byte
// aligned, so you may read them as float4. `potential` holds nz*ny*nx floats and arrives
// filled with NaN: every element must be written. On return the result must be complete
// (the grader synchronizes the device after your function before it reads the output).

// Part 1, scatter: one GPU thread per atom, each adding its contribution to every lattice point
// with atomicAdd. Device pointers.
void dcs_scatter(const float* atoms, int n_atoms, Lattice lattice, float* potential);

// Part 2, gather: one GPU thread per lattice point, each summing over all atoms; no atomics.
// Device pointers.
void dcs_gather(const float* atoms, int n_atoms, Lattice lattice, float* potential);

// Part 3, cpu_fast: the fast sequential CPU code, output-oriented (precompute each atom's dz^2
// per plane and dy^2 + dz^2 per row, then sweep the row). Host pointers; one CPU thread.
void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lattice, float* potential);
