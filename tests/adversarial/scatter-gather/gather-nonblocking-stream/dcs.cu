// Hostile, appended to the (slowed) reference: the gather goes to a stream that does not wait
// for, and is not waited for by, the legacy default stream the harness records its events on.
void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static cudaStream_t stream = [] {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  slow_gather_on(stream, atoms, n_atoms, lat, potential);
}
