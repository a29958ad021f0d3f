// A cheat the tolerance must reject: the gather rounds the atoms to half precision, halving
// the bytes it reads, at the cost of about three decimal digits.
#include <cuda_fp16.h>

#include "dcs.h"

__global__ void gather_half(const float4* atoms, int n, Lattice lat, float* v) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= lat.nx * lat.ny * lat.nz) return;
  const float x = (p % lat.nx) * lat.h, y = ((p / lat.nx) % lat.ny) * lat.h;
  const float z = (p / (lat.nx * lat.ny)) * lat.h;
  float sum = 0.0f;
  for (int a = 0; a < n; ++a) {
    const float4 at = atoms[a];
    const float ax = __half2float(__float2half(at.x)), ay = __half2float(__float2half(at.y));
    const float az = __half2float(__float2half(at.z)), q = __half2float(__float2half(at.w));
    const float dx = x - ax, dy = y - ay, dz = z - az;
    sum += q * rsqrtf(dx * dx + dy * dy + dz * dz);
  }
  v[p] = sum;
}

void dcs_scatter(const float*, int, Lattice, float*) {}

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const int points = lat.nx * lat.ny * lat.nz;
  gather_half<<<(points + 127) / 128, 128>>>(reinterpret_cast<const float4*>(atoms), n_atoms,
                                             lat, potential);
}

void dcs_cpu_fast(const float*, int, Lattice, float*) {}
