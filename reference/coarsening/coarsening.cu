// coarsening reference solution (hidden from students): the bar their times are scored against.
//
// The inner loop does, per atom and lattice point, one subtraction, two fused multiply-adds and
// one rsqrtf: the special-function unit's rsqrt (16 per SM per clock) is the limit, and
// everything else is arranged to keep it fed:
//  - each thread computes kCoarsen points of a row, kBlockX apart in x, so dy^2 + dz^2 of an
//    atom is computed once per thread and reused kCoarsen times, and the block's stores stay
//    coalesced;
//  - atoms come from constant memory, where a warp reading the same atom is one broadcast;
//  - the lattice is padded to whole tiles, so there is no bounds check in the atom loop and no
//    warp diverges at the edges; only the last chunk's launch writes the real points out.
// Built with -ftz=true (lab.json): rsqrtf of a normal number then needs no denormal fix-up.
#include <cuda_runtime.h>

#include "coarsening.h"

namespace {

// Measured on the H100 (docs/PERF.md): 16 points per thread keep the rsqrt unit at ~98% of its
// peak; 8 reach it only with some unroll factors and block shapes (1.4 to 3.9 T evals/s measured).
// `gpulab bench coarsening --sweep points-per-thread` compiles this file with GPULAB_COARSEN
// defined to each C of lab.json's sweep, for the handout's plot of throughput against C.
#ifndef GPULAB_COARSEN
#define GPULAB_COARSEN 16
#endif
constexpr int kBlockX = 32;               // threads along x: one warp per row
constexpr int kBlockY = 8;                // rows per block
constexpr int kCoarsen = GPULAB_COARSEN;  // points per thread, kBlockX apart
constexpr int kChunk = 4000;  // atoms per launch: 64000 of constant memory's 65536 bytes
constexpr int kTileX = kBlockX * kCoarsen;

__constant__ float4 chunk_atoms[kChunk];

// One launch per chunk of atoms. `acc` is the padded lattice ([nz][pad_ny][pad_nx]) that
// carries the sums between chunks; the last chunk writes the real points to `potential`.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    coarsened_kernel(int n, Lattice lat, int pad_nx, int pad_ny, float* __restrict__ acc,
                     bool first, bool last, float* __restrict__ potential) {
  const int i0 = blockIdx.x * kTileX + threadIdx.x;
  const int j = blockIdx.y * kBlockY + threadIdx.y;
  const int k = blockIdx.z;
  const float y = j * lat.h, z = k * lat.h;
  float x[kCoarsen], v[kCoarsen];
#pragma unroll
  for (int c = 0; c < kCoarsen; ++c) {
    x[c] = (i0 + c * kBlockX) * lat.h;
    v[c] = 0.0f;
  }
#pragma unroll 2
  for (int a = 0; a < n; ++a) {
    const float4 at = chunk_atoms[a];
    const float dy = y - at.y, dz = z - at.z;
    const float dyz2 = dy * dy + dz * dz;
#pragma unroll
    for (int c = 0; c < kCoarsen; ++c) {
      const float dx = x[c] - at.x;
      v[c] += at.w * rsqrtf(dx * dx + dyz2);
    }
  }
  float* row = acc + (static_cast<size_t>(k) * pad_ny + j) * pad_nx;
  float* out = potential + (static_cast<size_t>(k) * lat.ny + j) * lat.nx;
#pragma unroll
  for (int c = 0; c < kCoarsen; ++c) {
    const int i = i0 + c * kBlockX;
    const float sum = first ? v[c] : v[c] + row[i];
    if (!last)
      row[i] = sum;
    else if (i < lat.nx && j < lat.ny)
      out[i] = sum;
  }
}

}  // namespace

void dcs_coarsened(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const int pad_nx = (lat.nx + kTileX - 1) / kTileX * kTileX;
  const int pad_ny = (lat.ny + kBlockY - 1) / kBlockY * kBlockY;
  const dim3 grid(pad_nx / kTileX, pad_ny / kBlockY, lat.nz);
  const dim3 block(kBlockX, kBlockY);
  // One chunk needs no carry between launches; more get a stream-ordered padded scratch.
  float* acc = nullptr;
  if (n_atoms > kChunk) cudaMallocAsync(&acc, sizeof(float) * pad_nx * pad_ny * lat.nz, 0);
  for (int base = 0; base < n_atoms || base == 0; base += kChunk) {
    const int n = n_atoms - base < kChunk ? n_atoms - base : kChunk;
    if (n > 0)
      cudaMemcpyToSymbolAsync(chunk_atoms, atoms + 4 * static_cast<size_t>(base),
                              sizeof(float4) * n, 0, cudaMemcpyDeviceToDevice, 0);
    coarsened_kernel<<<grid, block>>>(n, lat, pad_nx, pad_ny, acc, base == 0,
                                      base + kChunk >= n_atoms, potential);
  }
  if (acc) cudaFreeAsync(acc, 0);
}
