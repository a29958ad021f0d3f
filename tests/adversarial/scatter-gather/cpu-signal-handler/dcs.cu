// Hostile, appended to the slowed reference (its twin is slow-cpu): each call keeps its inputs
// and output and arms a timer for 20 milliseconds later, then returns; SIGALRM's handler does
// the call's work, after the clock stopped and before (it hopes) the outputs are read.
#include <signal.h>
#include <sys/time.h>

#include <vector>

namespace {

std::vector<float> pending_atoms;
Lattice pending_lat;
float* pending_out = nullptr;

void late_work(int) {
  if (!pending_out) return;
  slow_cpu_fast(pending_atoms.data(), static_cast<int>(pending_atoms.size() / 4), pending_lat,
                pending_out);
  pending_out = nullptr;
}

}  // namespace

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  signal(SIGALRM, late_work);
  pending_atoms.assign(atoms, atoms + 4 * static_cast<size_t>(n_atoms));
  pending_lat = lat;
  pending_out = potential;
  itimerval once{};
  once.it_value.tv_usec = 20000;
  setitimer(ITIMER_REAL, &once, nullptr);
}
