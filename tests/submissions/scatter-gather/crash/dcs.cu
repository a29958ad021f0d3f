// A submission that crashes: the CPU part dereferences a null pointer, and the gather kernel
// writes far outside its allocation (an illegal address on the GPU).
#include "dcs.h"

__global__ void wild_write(float* v) { v[threadIdx.x - (1 << 28)] = 1.0f; }

void dcs_scatter(const float*, int, Lattice, float*) {}

void dcs_gather(const float*, int, Lattice, float* potential) { wild_write<<<1, 32>>>(potential); }

void dcs_cpu_fast(const float*, int, Lattice, float* potential) {
  volatile float* null = nullptr;
  potential[0] = *null;
}
