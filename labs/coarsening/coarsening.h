// coarsening: the function you implement, in coarsening.cu. Do not change this file: the
// grader builds your coarsening.cu against its own copy.
//
// Lab 1's direct Coulomb summation, made fast. The potential at lattice point (i, j, k), which
// sits at (x, y, z) = (i*h, j*h, k*h), is
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

// The coarsened gather: each GPU thread computes several lattice points of one row, spaced one
// block width apart in x; the atoms go through constant memory in chunks. `atoms` holds n_atoms
// records of four floats (x, y, z, q), 16-byte aligned; `potential` holds nz*ny*nx floats and
// arrives filled with NaN: every element must be written, and nothing outside it. Device
// pointers. On return the result must be complete (the grader synchronizes the device after
// your function before it reads the output).
void dcs_coarsened(const float* atoms, int n_atoms, Lattice lattice, float* potential);
