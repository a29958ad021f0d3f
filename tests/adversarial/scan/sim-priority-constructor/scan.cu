// Hostile: a constructor of priority 101, the first a program may use, hoping to run before
// the CPU backend reads its settings and unset them all.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

__attribute__((constructor(101))) static void unset_sim_variables_first() {
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
