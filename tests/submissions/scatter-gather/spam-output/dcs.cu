// A correct CPU part that prints about 100 MB while it works: the grader must keep only a
// bounded amount of it and still grade the results.
#include <cmath>
#include <cstdio>

#include "dcs.h"

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  for (int line = 0; line < 1000000; ++line)
    std::printf("debug line %07d: lots of output the grader must not keep in full.........\n",
                line);
  const int points = lat.nx * lat.ny * lat.nz;
  for (int p = 0; p < points; ++p) potential[p] = 0.0f;
  for (int a = 0; a < n_atoms; ++a)
    for (int p = 0; p < points; ++p) {
      const float dx = (p % lat.nx) * lat.h - atoms[4 * a];
      const float dy = ((p / lat.nx) % lat.ny) * lat.h - atoms[4 * a + 1];
      const float dz = (p / (lat.nx * lat.ny)) * lat.h - atoms[4 * a + 2];
      potential[p] += atoms[4 * a + 3] / std::sqrt(dx * dx + dy * dy + dz * dz);
    }
}
