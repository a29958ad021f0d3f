// A correct coarsened gather that differs from the reference in every choice: 4 points per
// thread, atoms staged through shared memory instead of constant memory, no padding (bounds
// checks instead), 1/sqrtf instead of rsqrtf, and one launch for all atoms.
#include <cuda_runtime.h>

#include "coarsening.h"

namespace {

constexpr int kBlock = 64;
constexpr int kPoints = 4;
constexpr int kTile = 512;

__global__ void kernel(const float4* atoms, int n_atoms, Lattice lat, float* potential) {
  __shared__ float4 tile[kTile];
  const int i0 = blockIdx.x * kBlock * kPoints + threadIdx.x;
  const int j = blockIdx.y, k = blockIdx.z;
  const float y = j * lat.h, z = k * lat.h;
  float v[kPoints] = {};
  for (int base = 0; base < n_atoms; base += kTile) {
    const int count = min(kTile, n_atoms - base);
    __syncthreads();
    for (int t = threadIdx.x; t < count; t += blockDim.x) tile[t] = atoms[base + t];
    __syncthreads();
    for (int t = count - 1; t >= 0; --t) {  // backwards: a different summation order
      const float4 at = tile[t];
      const float dyz2 = (y - at.y) * (y - at.y) + (z - at.z) * (z - at.z);
      for (int c = 0; c < kPoints; ++c) {
        const float dx = (i0 + c * kBlock) * lat.h - at.x;
        v[c] += at.w / sqrtf(dx * dx + dyz2);
      }
    }
  }
  for (int c = 0; c < kPoints; ++c) {
    const int i = i0 + c * kBlock;
    if (i < lat.nx) potential[(static_cast<size_t>(k) * lat.ny + j) * lat.nx + i] = v[c];
  }
}

}  // namespace

void dcs_coarsened(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const dim3 grid((lat.nx + kBlock * kPoints - 1) / (kBlock * kPoints), lat.ny, lat.nz);
  kernel<<<grid, kBlock>>>(reinterpret_cast<const float4*>(atoms), n_atoms, lat, potential);
}
