// binning: the function you implement, in binning.cu. Do not change this file: the grader
// builds your binning.cu against its own copy.
//
// Cutoff electrostatic potential. The potential at lattice point p = (i*h, j*h, k*h) is
//
//     V(p) = sum over atoms a with r_a < rc of  q_a / r_a * (1 - r_a^2 / rc^2)^2,
//
// where r_a = |p - (x_a, y_a, z_a)| and rc = params.cutoff. Atoms at rc or farther contribute
// nothing; the smoothing factor takes each term to zero at the cutoff. Compute each coordinate
// as the float product `i * h` (not by adding h repeatedly), as the grader's fp64 oracle does.
#pragma once

struct CutoffLattice {
  int nx, ny, nz;  // lattice points along x, y, z; the output is [nz][ny][nx], x fastest
  float h;         // lattice spacing
};

struct CutoffParams {
  float cutoff;      // rc
  float bin_size;    // the side B of the cubic bins to sort the atoms into
  int bin_capacity;  // slots per bin; the atoms that do not fit go to the overflow list
};

// `atoms` is a HOST pointer: n_atoms records of four floats (x, y, z, q). Atoms may lie outside
// the lattice's box, some far beyond the cutoff; no charge is 0. `potential` is a DEVICE pointer
// to nz*ny*nx floats that arrives filled with NaN: every element must be written. On return the
// work may still be running on the GPU in the default stream (the grader synchronizes the
// device before it reads the output), but nothing may be left to do on the CPU.
void cutoff_potential(const float* atoms, int n_atoms, CutoffLattice lattice, CutoffParams params,
                      float* potential);
