// coarsening's baseline: lab 1's plain gather (one thread per lattice point, every atom read
// from global memory), the version the coarsened kernel must beat by the rubric's speedup. It
// is trusted code, built with the lab's flags and timed in a process of its own, by a runner in
// which no student function is called (the grader's baseline runner, grader/grade/runner_builds.h).
// It lives here, with the solution, because it is a complete answer to lab 1: lab.json's
// reference_driver_files links it into the driver, and the student kit has it only compiled,
// in the baseline runner it ships (grader/build/kit_runners.h).
#include <cuda_runtime.h>

#include "coarsening.h"
#include "driver_baseline.h"

namespace {

constexpr int kBlock = 128;

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

void baseline_plain_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const size_t points = static_cast<size_t>(lat.nx) * lat.ny * lat.nz;
  const unsigned blocks = static_cast<unsigned>((points + kBlock - 1) / kBlock);
  plain_gather_kernel<<<blocks, kBlock>>>(reinterpret_cast<const float4*>(atoms), n_atoms, lat,
                                          potential);
}
