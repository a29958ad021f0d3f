// Hostile: at run time, starts up to 1000 processes that each leave the runner's session (so a
// kill of its process group misses them), name themselves gpulab-bomb and wait a minute. The
// sandbox's process limit refuses the fork long before that, and its pid namespace ends every
// one of them with the run.
#include <errno.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "dcs.h"

void dcs_scatter(const float*, int, Lattice, float*) {}
void dcs_gather(const float*, int, Lattice, float*) {}

void dcs_cpu_fast(const float*, int, Lattice, float*) {
  constexpr int kMost = 1000;
  for (int made = 0; made < kMost; ++made) {
    const pid_t pid = fork();
    if (pid == 0) {
      setsid();
      prctl(PR_SET_NAME, "gpulab-bomb");
      sleep(60);
      _exit(0);
    }
    if (pid < 0) {
      std::printf("gpulab-adversarial: fork refused after %d processes (%s)\n", made,
                  std::strerror(errno));
      std::fflush(stdout);
      std::exit(3);
    }
  }
  std::printf("gpulab-adversarial: %d processes started, nothing stopped them\n", kMost);
  std::fflush(stdout);
  std::exit(3);
}
