// Hostile, appended to the (slowed) reference: four forked workers each compute a quarter of
// the planes into shared memory; the parent waits for them and copies the result.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  const size_t plane = static_cast<size_t>(lat.nx) * lat.ny;
  const size_t bytes = plane * lat.nz * sizeof(float);
  float* shared = static_cast<float*>(
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  constexpr int kWorkers = 4;
  pid_t workers[kWorkers];
  for (int w = 0; w < kWorkers; ++w) {
    const int first = lat.nz * w / kWorkers, last = lat.nz * (w + 1) / kWorkers;
    workers[w] = fork();
    if (workers[w] == 0) {
      Lattice part = lat;
      part.nz = last - first;
      // The planes [first, last) are the lattice shifted down by first * h in z.
      std::vector<float> shifted(atoms, atoms + 4 * static_cast<size_t>(n_atoms));
      for (int a = 0; a < n_atoms; ++a) shifted[4 * a + 2] -= first * lat.h;
      slow_cpu_fast(shifted.data(), n_atoms, part, shared + plane * first);
      _exit(0);
    }
  }
  for (pid_t w : workers) waitpid(w, nullptr, 0);
  std::memcpy(potential, shared, bytes);
  munmap(shared, bytes);
}
