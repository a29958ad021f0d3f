// A submission that does not compile: a missing semicolon and an undeclared name.
#include "dcs.h"

void dcs_scatter(const float* atoms, int n_atoms, Lattice lattice, float* potential) {
  int x = 1
  undeclared_function(x);
}

void dcs_gather(const float*, int, Lattice, float*) {}
void dcs_cpu_fast(const float*, int, Lattice, float*) {}
