// Hostile, appended to the slowed reference (its twin is slow-gather): each call arms a timer and
// returns; SIGALRM's handler launches the call's kernel on a non-blocking stream 2 ms later,
// after the sample's clock has stopped.
#include <signal.h>
#include <sys/time.h>

namespace {

const float* pending_atoms = nullptr;
int pending_n = 0;
Lattice pending_lat;
float* pending_out = nullptr;

void late_launch(int) {
  if (!pending_out) return;
  static cudaStream_t stream = [] {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  slow_gather_on(stream, pending_atoms, pending_n, pending_lat, pending_out);
  pending_out = nullptr;
}

}  // namespace

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  signal(SIGALRM, late_launch);
  pending_atoms = atoms;
  pending_n = n_atoms;
  pending_lat = lat;
  pending_out = potential;
  itimerval once{};
  once.it_value.tv_usec = 2000;
  setitimer(ITIMER_REAL, &once, nullptr);
}
