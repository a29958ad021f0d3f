// The honest twin of baseline-hog: lab 1's plain gather (one thread per lattice point, every
// atom read from global memory), the very code of the lab's speedup baseline, and nothing else.
// It is right, so it earns full correctness, and no faster than the baseline, so no speedup.
#include "coarsening.h"

namespace {

constexpr int kBlock = 128;

__global__ void plain_gather(const float4* __restrict__ atoms, int n_atoms, Lattice lat,
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

void dcs_coarsened(const float* atoms, int n_atoms, Lattice lattice, float* potential) {
  const size_t points = static_cast<size_t>(lattice.nx) * lattice.ny * lattice.nz;
  const unsigned blocks = static_cast<unsigned>((points + kBlock - 1) / kBlock);
  plain_gather<<<blocks, kBlock>>>(reinterpret_cast<const float4*>(atoms), n_atoms, lattice,
                                   potential);
}
