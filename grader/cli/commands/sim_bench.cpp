// gpulab sim-bench: the CPU backend's own benchmark (barrier-free kernels against plain C++,
// barrier crossings), run in place of this process.
#include <unistd.h>

#include <iostream>

#include "cli/commands/commands.h"
#include "files/paths.h"
#include "os/exit_status.h"

namespace gpulab {

Command declare_sim_bench(CLI::App& gpulab) {
  CLI::App* cmd = gpulab.add_subcommand(
      "sim-bench", "Time the CPU backend: barrier-free kernels against plain C++, barriers");
  return {cmd, [] {
            const std::string bench =
                (Paths::current().build / "bin" / "gpulab-sim-bench").string();
            execl(bench.c_str(), bench.c_str(), static_cast<char*>(nullptr));
            std::cerr << "gpulab sim-bench: cannot run " << bench
                      << " (is gpulab built with the CPU backend?)\n";
            return kExitFailed;
          }};
}

}  // namespace gpulab
