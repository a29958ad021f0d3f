// Planted bug: the gather's last block has threads past the end of the lattice, and nothing
// stops them from writing. Only gather is implemented.
#include "dcs.h"

__global__ void gather_unguarded(const float4* atoms, int n, Lattice lat, float* v) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = p % lat.nx, j = (p / lat.nx) % lat.ny, k = p / (lat.nx * lat.ny);
  float sum = 0.0f;
  for (int a = 0; a < n; ++a) {
    const float dx = i * lat.h - atoms[a].x, dy = j * lat.h - atoms[a].y;
    const float dz = k * lat.h - atoms[a].z;
    sum += atoms[a].w * rsqrtf(dx * dx + dy * dy + dz * dz);
  }
  v[p] = sum;  // BUG: no `if (p < nx * ny * nz)`
}

void dcs_scatter(const float*, int, Lattice, float*) {}

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const int points = lat.nx * lat.ny * lat.nz;
  gather_unguarded<<<(points + 255) / 256, 256>>>(reinterpret_cast<const float4*>(atoms),
                                                  n_atoms, lat, potential);
}

void dcs_cpu_fast(const float*, int, Lattice, float*) {}
