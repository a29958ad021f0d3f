// scatter-gather: your code. Implement the three functions declared in dcs.h.
// `gpulab run scatter-gather` builds this file and checks it; the handout says more.
#include "dcs.h"

// TODO part 1: a kernel with one thread per atom that adds q / r to every lattice point with
// atomicAdd. The output arrives filled with NaN, so set it to zero first (cudaMemset).
void dcs_scatter(const float* atoms, int n_atoms, Lattice lattice, float* potential) {}

// TODO part 2: a kernel with one thread per lattice point that sums q / r over all atoms and
// writes its point once. Launch enough blocks to cover every point, and guard the edges.
void dcs_gather(const float* atoms, int n_atoms, Lattice lattice, float* potential) {}

// TODO part 3: output-oriented CPU code. For each plane precompute every atom's dz^2, for each
// row dy^2 + dz^2, then sweep the row's points.
void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lattice, float* potential) {}
