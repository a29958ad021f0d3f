// binning: your code. Implement cutoff_potential, declared in binning.h.
// `gpulab run binning` builds this file and checks it; the handout says more.
#include "binning.h"

// TODO, on the CPU:
//  1. Choose a grid of cubic bins of side params.bin_size that covers the lattice's box widened
//     by the cutoff (atoms beyond it contribute nothing: drop them). Put each atom into its bin,
//     at most params.bin_capacity per bin; mark the empty slots (for example q = 0, no atom has
//     it); the atoms that do not fit go to one overflow list.
//  2. Build the neighbourhood offset list: the bin offsets that can hold an atom within the
//     cutoff of some lattice point of a block's tile. Copy it to __constant__ memory.
//  3. Copy the bins to the device and launch the kernel, without waiting for it.
//  4. While the GPU works, add the overflow atoms' contributions into a host array, then copy
//     them to the device and add them to the potential (after the kernel, in the same stream).
//
// TODO, the kernel: a block per tile of lattice points, each thread computing a few points along
// y. Stage the neighbour bins through shared memory (__syncthreads() before the block reuses the
// buffer); skip the atoms whose distance to the thread's line of points (the cylinder test) is
// at least the cutoff; stop at a bin's first empty slot; write every point once.
void cutoff_potential(const float* atoms, int n_atoms, CutoffLattice lattice, CutoffParams params,
                      float* potential) {}
