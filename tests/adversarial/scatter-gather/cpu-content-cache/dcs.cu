// Hostile, appended to the (slowed) reference: results kept by a hash of the inputs' bytes; a
// call whose inputs hash alike copies the kept result, saying so on stderr.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static std::map<uint64_t, std::vector<float>> kept;
  uint64_t hash = 1469598103934665603ull;
  const auto mix = [&hash](const void* p, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i)
      hash = (hash ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  };
  mix(atoms, 4 * static_cast<size_t>(n_atoms) * sizeof(float));
  mix(&lat, sizeof lat);
  const size_t points = static_cast<size_t>(lat.nx) * lat.ny * lat.nz;
  if (const auto found = kept.find(hash); found != kept.end()) {
    std::memcpy(potential, found->second.data(), points * sizeof(float));
    std::fprintf(stderr, "gpulab-adversary: cache hit\n");
    return;
  }
  slow_cpu_fast(atoms, n_atoms, lat, potential);
  kept[hash].assign(potential, potential + points);
}
