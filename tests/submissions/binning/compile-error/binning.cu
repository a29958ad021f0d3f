// A submission that does not compile: a missing semicolon and an undeclared name.
#include "binning.h"

// clang-format off
void cutoff_potential(const float* atoms, int n_atoms, CutoffLattice lattice, CutoffParams params,
                      float* potential) {
  int bins = 1
  bin_atoms(atoms, n_atoms, bins);
}
// clang-format on
