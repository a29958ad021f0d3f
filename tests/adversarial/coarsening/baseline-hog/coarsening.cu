// Hostile: lab 1's plain gather, as in its twin baseline-hog-twin, which on its first call also
// starts a detached host thread that keeps the GPU busy for as long as the process lives: spin
// kernels on a stream of its own, back to back, long after the call returned. When the speedup
// baseline was timed in the student's process, right after the student's samples, it ran beside
// these kernels and took more than twice as long (20.8 ms became 54.1 ms), and the plain gather
// earned the speedup points. The grader now times the baseline in a process of its own, by a
// runner with no student code, so the hog can slow only the student's own runs.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>

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

// Every thread spins for about `cycles` clock cycles: a block per SM and more keeps every SM
// busy.
__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

std::atomic<bool> stop{false}, stopped{false};

// The hog: spin kernels back to back on a non-blocking stream (no implicit synchronisation with
// the caller's work), until the process exits.
void hog() {
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess) {
    while (!stop) {
      spin<<<1024, 256, 0, stream>>>(1 << 20);
      if (cudaStreamSynchronize(stream) != cudaSuccess) break;
    }
  }
  stopped = true;
}

// Stops the hog at exit, before the CUDA runtime is torn down (exit handlers run in the reverse
// order of their registration, and the runtime registered its own before the first call), so
// that the run still ends cleanly: the attack is the slowdown, not a crash.
void stop_hog() {
  stop = true;
  while (!stopped) std::this_thread::yield();
}

}  // namespace

void dcs_coarsened(const float* atoms, int n_atoms, Lattice lattice, float* potential) {
  static std::once_flag started;
  std::call_once(started, [] {
    std::atexit(stop_hog);
    std::thread(hog).detach();
  });
  const size_t points = static_cast<size_t>(lattice.nx) * lattice.ny * lattice.nz;
  const unsigned blocks = static_cast<unsigned>((points + kBlock - 1) / kBlock);
  plain_gather<<<blocks, kBlock>>>(reinterpret_cast<const float4*>(atoms), n_atoms, lattice,
                                   potential);
}
