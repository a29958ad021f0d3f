// Appended to the reference: interpose-clock-gettime with its clock_gettime defined weak. A weak
// definition in the program still replaces the C library's (a shared library's definition never
// wins over the program's own), so it is refused like the strong one. Its honest twin is
// interpose-clock-gettime-twin.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  for (int round = 0; round < 3; ++round) honest_dcs_cpu_fast(atoms, n_atoms, lat, potential);
}

// Each clock, counted from its first reading, at an eighth of its rate.
extern "C" __attribute__((weak)) int clock_gettime(clockid_t clock, struct timespec* ts) noexcept {
  static long long first_ns[16];
  static bool seen[16];
  const long rc = syscall(SYS_clock_gettime, clock, ts);
  if (rc != 0 || clock < 0 || clock >= 16) return static_cast<int>(rc);
  const long long ns = ts->tv_sec * 1000000000LL + ts->tv_nsec;
  if (!seen[clock]) {
    seen[clock] = true;
    first_ns[clock] = ns;
  }
  const long long slow = first_ns[clock] + (ns - first_ns[clock]) / 8;
  ts->tv_sec = slow / 1000000000LL;
  ts->tv_nsec = slow % 1000000000LL;
  return 0;
}
