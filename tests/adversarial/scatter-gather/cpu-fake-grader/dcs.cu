// Hostile, appended to the slowed reference (its twin is slow-cpu): in a timed run, the first
// call moves the grader's socket (descriptor 3) aside and puts a socket pair of its own in its
// place, with the answers to the harness's first requests already queued in it.
#include <sys/socket.h>
#include <unistd.h>

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
    int pair[2];
    if (cmdline.find("--samples") != std::string::npos &&
        socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair) == 0) {
      dup2(3, 40);  // the grader's, kept
      for (int k = 1; k <= 2; ++k) {
        const std::string sample = "{\"sample\": " + std::to_string(k) + "}";
        const std::string ok = "{\"ok\": " + std::to_string(k) + "}";
        send(pair[1], sample.data(), sample.size(), 0);
        send(pair[1], ok.data(), ok.size(), 0);
      }
      dup2(pair[0], 3);
    }
  }
  slow_cpu_fast(atoms, n_atoms, lat, potential);
}
