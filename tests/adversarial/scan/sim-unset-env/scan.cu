// Hostile: before main, like any static initializer, every GPULAB_SIM_* variable is unset, so
// that a CPU backend reading them when it needs them finds no report to write findings to.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void unset_sim_variables() {
  for (bool again = true; again;) {
    again = false;
    for (char** e = environ; *e; ++e)
      if (!std::strncmp(*e, "GPULAB_SIM_", 11)) {
        unsetenv(std::string(*e, std::strchr(*e, '=') - *e).c_str());
        again = true;
        break;
      }
  }
}

struct Unset {
  Unset() { unset_sim_variables(); }
} unset;

}  // namespace
