// Hostile, appended to the (slowed) reference: a thread of its own launches the gather on a
// non-blocking stream and then waits for it; the call returns once the launch is made.
#include <atomic>
#include <thread>

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  std::atomic<bool> launched{false};
  std::thread([=, &launched] {
    cudaStream_t stream;
    cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    slow_gather_on(stream, atoms, n_atoms, lat, potential);
    launched = true;
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
  }).detach();
  while (!launched) std::this_thread::yield();
}
