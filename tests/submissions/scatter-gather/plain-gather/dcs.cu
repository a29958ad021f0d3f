// Appended to the reference's dcs.cu, whose own dcs_gather is renamed (tests/e2e/
// lab1_curve_e2e.cpp): the plain gather, one thread per lattice point reading every atom from
// global memory, with no tiles. Correct, and what lab 1's performance curve must not reward in
// full. (It builds on its own too, as every shipped submission does.)
#include <cuda_runtime.h>

#include "dcs.h"

namespace {

__global__ void plain_gather_kernel(const float4* __restrict__ atoms, int n_atoms, Lattice lat,
                                    float* __restrict__ potential) {
  const size_t points = static_cast<size_t>(lat.nx) * lat.ny * lat.nz;
  const size_t p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= points) return;
  const int i = static_cast<int>(p % lat.nx);
  const int j = static_cast<int>((p / lat.nx) % lat.ny);
  const int k = static_cast<int>(p / (static_cast<size_t>(lat.nx) * lat.ny));
  const float x = i * lat.h, y = j * lat.h, z = k * lat.h;
  float v = 0.0f;
  for (int a = 0; a < n_atoms; ++a) {
    const float4 at = atoms[a];
    const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
    v += at.w * rsqrtf(dx * dx + dy * dy + dz * dz);
  }
  potential[p] = v;
}

}  // namespace

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const size_t points = static_cast<size_t>(lat.nx) * lat.ny * lat.nz;
  const unsigned blocks = static_cast<unsigned>((points + 127) / 128);
  plain_gather_kernel<<<blocks, 128>>>(reinterpret_cast<const float4*>(atoms), n_atoms, lat,
                                       potential);
}
