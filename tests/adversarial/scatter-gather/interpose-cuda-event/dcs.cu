// Appended to the reference: the gather three times slower (the reference's kernel, launched
// three times), and a cudaEventElapsedTime of its own, which reports an eighth of the time the
// call took by the host's clock. The harness times a GPU part between two CUDA events; with
// this definition in the program it would read the student's number instead of the GPU's
// (libcudart_static.a's member is then never linked). The grader refuses to build it (a
// submission may define no function of the CUDA runtime). Its honest twin,
// interpose-cuda-event-twin, is the same code without the event function.
#include <chrono>

namespace {
double last_call_ms = 0;
}

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < 3; ++round) honest_dcs_gather(atoms, n_atoms, lat, potential);
  cudaDeviceSynchronize();
  last_call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = static_cast<float>(last_call_ms / 8);
  return cudaSuccess;
}
