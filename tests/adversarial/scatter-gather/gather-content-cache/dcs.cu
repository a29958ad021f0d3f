// Hostile, appended to the (slowed) reference: results kept on the device by a hash of the
// inputs' bytes; a call whose inputs hash alike copies the kept result, saying so on stderr.
#include <cstdint>
#include <cstdio>
#include <map>
#include <vector>

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static std::map<uint64_t, float*> kept;
  std::vector<float> host(4 * static_cast<size_t>(n_atoms));
  cudaMemcpy(host.data(), atoms, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  uint64_t hash = 1469598103934665603ull;
  const auto mix = [&hash](const void* p, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) hash = (hash ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  };
  mix(host.data(), host.size() * sizeof(float));
  mix(&lat, sizeof lat);
  const size_t bytes = static_cast<size_t>(lat.nx) * lat.ny * lat.nz * sizeof(float);
  if (const auto found = kept.find(hash); found != kept.end()) {
    cudaMemcpy(potential, found->second, bytes, cudaMemcpyDeviceToDevice);
    std::fprintf(stderr, "gpulab-adversary: cache hit\n");
    return;
  }
  slow_gather(atoms, n_atoms, lat, potential);
  float* copy = nullptr;
  cudaMalloc(&copy, bytes);
  cudaMemcpy(copy, potential, bytes, cudaMemcpyDeviceToDevice);
  kept[hash] = copy;
}
