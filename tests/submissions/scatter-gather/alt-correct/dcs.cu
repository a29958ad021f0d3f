// An example correct submission written differently from the reference: plain scatter order,
// a 3-D grid of 32x4 blocks for the gather reading atoms straight from global memory, and a
// CPU loop that gathers per point over precomputed per-row distances.
#include <cmath>
#include <vector>

#include "dcs.h"

__global__ void scatter_plain(const float4* atoms, int n, Lattice lat, float* v) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const float4 at = atoms[a];
  for (int k = 0; k < lat.nz; ++k)
    for (int j = 0; j < lat.ny; ++j)
      for (int i = 0; i < lat.nx; ++i) {
        const float dx = i * lat.h - at.x, dy = j * lat.h - at.y, dz = k * lat.h - at.z;
        atomicAdd(&v[(k * lat.ny + j) * lat.nx + i], at.w / sqrtf(dx * dx + dy * dy + dz * dz));
      }
}

__global__ void gather_3d(const float4* __restrict__ atoms, int n, Lattice lat, float* v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z;
  if (i >= lat.nx || j >= lat.ny) return;
  const float x = i * lat.h, y = j * lat.h, z = k * lat.h;
  float sum = 0.0f;
  for (int a = n - 1; a >= 0; --a) {  // backwards, to differ from the reference's order
    const float4 at = __ldg(&atoms[a]);
    const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
    sum += at.w * rsqrtf(dx * dx + dy * dy + dz * dz);
  }
  v[(k * lat.ny + j) * lat.nx + i] = sum;
}

void dcs_scatter(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  cudaMemset(potential, 0, sizeof(float) * lat.nx * lat.ny * lat.nz);
  scatter_plain<<<(n_atoms + 63) / 64, 64>>>(reinterpret_cast<const float4*>(atoms), n_atoms,
                                             lat, potential);
}

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const dim3 block(32, 4);
  const dim3 grid((lat.nx + 31) / 32, (lat.ny + 3) / 4, lat.nz);
  gather_3d<<<grid, block>>>(reinterpret_cast<const float4*>(atoms), n_atoms, lat, potential);
}

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  std::vector<float> dyz2(n_atoms), dz2(n_atoms);
  for (int k = 0; k < lat.nz; ++k) {
    for (int a = 0; a < n_atoms; ++a) {
      const float dz = k * lat.h - atoms[4 * a + 2];
      dz2[a] = dz * dz;
    }
    for (int j = 0; j < lat.ny; ++j) {
      for (int a = 0; a < n_atoms; ++a) {
        const float dy = j * lat.h - atoms[4 * a + 1];
        dyz2[a] = dy * dy + dz2[a];
      }
      for (int i = 0; i < lat.nx; ++i) {
        const float x = i * lat.h;
        float sum = 0.0f;
        for (int a = 0; a < n_atoms; ++a) {
          const float dx = x - atoms[4 * a];
          sum += atoms[4 * a + 3] / std::sqrt(dx * dx + dyz2[a]);
        }
        potential[(k * lat.ny + j) * lat.nx + i] = sum;
      }
    }
  }
}
