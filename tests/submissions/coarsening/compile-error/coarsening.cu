// A submission that does not compile: a kernel calls a function that does not exist.
#include "coarsening.h"

__global__ void kernel(float* potential) {
  potential[threadIdx.x] = undeclared_function(threadIdx.x);
}

void dcs_coarsened(const float* atoms, int n_atoms, Lattice lattice, float* potential) {
  kernel<<<1, 32>>>(potential);
}
