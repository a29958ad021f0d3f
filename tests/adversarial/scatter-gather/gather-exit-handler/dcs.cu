// Hostile, appended to the slowed reference (its twin is slow-gather): each call keeps a copy of
// its atoms (on the device) and its output pointer, and returns at once; an exit handler runs
// every kept call's kernel once the last one has been timed.
#include <cstdlib>
#include <vector>

namespace {

struct Kept {
  float* atoms;
  int n_atoms;
  Lattice lat;
  float* out;
};

std::vector<Kept>& kept() {
  static auto* k = new std::vector<Kept>;
  return *k;
}

void work_after_the_clock() {
  for (const Kept& c : kept()) slow_gather_on(0, c.atoms, c.n_atoms, c.lat, c.out);
  cudaDeviceSynchronize();
}

const bool registered = std::atexit(work_after_the_clock) == 0;

}  // namespace

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  (void)registered;
  float* copy = nullptr;
  cudaMalloc(&copy, 16 * static_cast<size_t>(n_atoms > 0 ? n_atoms : 1));
  cudaMemcpy(copy, atoms, 16 * static_cast<size_t>(n_atoms), cudaMemcpyDeviceToDevice);
  kept().push_back({copy, n_atoms, lat, potential});
}
