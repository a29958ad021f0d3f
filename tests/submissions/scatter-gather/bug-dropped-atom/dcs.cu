// Planted bug: both the gather and the CPU code stop one atom early (an off-by-one in the loop
// bound), so the last atom's contribution is missing everywhere.
#include <cmath>

#include "dcs.h"

__global__ void gather_short(const float4* atoms, int n, Lattice lat, float* v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y, k = blockIdx.z;
  if (i >= lat.nx) return;
  float sum = 0.0f;
  for (int a = 0; a < n - 1; ++a) {  // BUG: should be a < n
    const float dx = i * lat.h - atoms[a].x, dy = j * lat.h - atoms[a].y;
    const float dz = k * lat.h - atoms[a].z;
    sum += atoms[a].w * rsqrtf(dx * dx + dy * dy + dz * dz);
  }
  v[(k * lat.ny + j) * lat.nx + i] = sum;
}

void dcs_scatter(const float*, int, Lattice, float*) {}

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  gather_short<<<dim3((lat.nx + 127) / 128, lat.ny, lat.nz), 128>>>(
      reinterpret_cast<const float4*>(atoms), n_atoms, lat, potential);
}

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  for (int p = 0; p < lat.nx * lat.ny * lat.nz; ++p) {
    const int i = p % lat.nx, j = (p / lat.nx) % lat.ny, k = p / (lat.nx * lat.ny);
    float sum = 0.0f;
    for (int a = 1; a < n_atoms; ++a) {  // BUG: should start at a = 0
      const float dx = i * lat.h - atoms[4 * a], dy = j * lat.h - atoms[4 * a + 1];
      const float dz = k * lat.h - atoms[4 * a + 2];
      sum += atoms[4 * a + 3] / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    potential[p] = sum;
  }
}
