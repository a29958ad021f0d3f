// Hostile, appended to the slowed reference (its twin is slow-gather): the kernel is queued on a
// non-blocking stream behind a gate kernel that spins on a flag in mapped host memory; a thread
// sets the flag 50 ms after the call returned.
#include <chrono>
#include <thread>

namespace {

__global__ void gate(volatile int* flag) {
  while (*flag == 0) {
  }
}

}  // namespace

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static volatile int* flag = [] {
    void* p = nullptr;
    cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped);
    return static_cast<volatile int*>(p);
  }();
  static cudaStream_t stream = [] {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  *flag = 0;
  int* device_flag = nullptr;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag), const_cast<int*>(flag), 0);
  gate<<<1, 1, 0, stream>>>(device_flag);
  slow_gather_on(stream, atoms, n_atoms, lat, potential);
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    *flag = 1;
  }).detach();
}
