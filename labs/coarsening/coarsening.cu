// coarsening: your code. Implement dcs_coarsened, declared in coarsening.h.
// `gpulab run coarsening` builds this file and checks it; handouts/coarsening.md says more.
#include "coarsening.h"

// TODO 1: a __constant__ array for one chunk of atoms (constant memory holds 64 KB: at most
// 4096 float4 records, a little less leaves room for the compiler's own constants).
//
// TODO 2: a kernel in which each thread computes C points of one row, spaced blockDim.x apart
// in x (so the block's stores stay coalesced). For each atom of the chunk compute dy^2 + dz^2
// once and reuse it for the thread's C points. Add to what earlier chunks left, unless this is
// the first chunk.
//
// TODO 3: pad the lattice to whole tiles (blockDim.x * C points in x, blockDim.y rows in y) in a
// scratch buffer of your own, so that no thread needs a bounds check inside the atom loop, and
// copy only the real lattice into `potential`: the padding must never be written there.
//
// TODO 4: here, loop over the chunks: copy each to the constant array (cudaMemcpyToSymbol) and
// launch the kernel on it.
void dcs_coarsened(const float* atoms, int n_atoms, Lattice lattice, float* potential) {}
