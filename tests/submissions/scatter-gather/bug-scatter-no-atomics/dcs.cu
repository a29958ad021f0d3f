// Planted bug: the scatter adds with a plain `+=`, so threads that update the same point at
// the same time lose each other's contributions. Only scatter is implemented.
#include "dcs.h"

__global__ void scatter_racy(const float4* atoms, int n, Lattice lat, float* v) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const float4 at = atoms[a];
  for (int k = 0; k < lat.nz; ++k)
    for (int j = 0; j < lat.ny; ++j)
      for (int i = 0; i < lat.nx; ++i) {
        const float dx = i * lat.h - at.x, dy = j * lat.h - at.y, dz = k * lat.h - at.z;
        v[(k * lat.ny + j) * lat.nx + i] += at.w * rsqrtf(dx * dx + dy * dy + dz * dz);  // BUG
      }
}

void dcs_scatter(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  cudaMemset(potential, 0, sizeof(float) * lat.nx * lat.ny * lat.nz);
  scatter_racy<<<(n_atoms + 127) / 128, 128>>>(reinterpret_cast<const float4*>(atoms), n_atoms,
                                               lat, potential);
}

void dcs_gather(const float*, int, Lattice, float*) {}
void dcs_cpu_fast(const float*, int, Lattice, float*) {}
