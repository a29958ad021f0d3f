// Hostile, appended to the slowed reference (its twin is slow-cpu): in a timed run (its command
// line says --samples), the first call asks the grader for samples 1 and 2 over descriptor 3 as
// the harness would, before any of their clocks has started.
#include <sys/socket.h>

#include <fstream>
#include <iterator>
#include <string>

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static bool first = true;
  if (first) {
    first = false;
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    if (cmdline.find("--samples") != std::string::npos)
      for (int k = 1; k <= 2; ++k) {
        const std::string ask = "{\"ask\": " + std::to_string(k) + "}";
        char answer[256];
        if (send(3, ask.data(), ask.size(), MSG_NOSIGNAL) < 0 ||
            recv(3, answer, sizeof answer, 0) <= 0)
          break;
      }
  }
  slow_cpu_fast(atoms, n_atoms, lat, potential);
}
