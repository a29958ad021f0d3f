// Appended to the reference: the honest twin of interpose-cuda-event, the gather three times
// slower (the reference's kernel, launched three times) and nothing else. Right, and timed as
// what it is.
void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  for (int round = 0; round < 3; ++round) honest_dcs_gather(atoms, n_atoms, lat, potential);
}
