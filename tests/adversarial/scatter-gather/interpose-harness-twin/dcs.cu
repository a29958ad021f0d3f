// Appended to the reference: the honest twin of interpose-harness, cpu_fast three times slower
// (the reference's code, run three times) and nothing else. Right, and timed as what it is.
void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  for (int round = 0; round < 3; ++round) honest_dcs_cpu_fast(atoms, n_atoms, lat, potential);
}
