// gpulab sim-cc: builds a CUDA program for the CPU backend, like nvcc. It takes nvcc's command
// line, which is not CLI11's: main.cpp hands it to sim_cc_main before CLI11 sees it, and the
// subcommand here only lists it in --help.
#include <iostream>

#ifdef GPULAB_HAVE_SIM
#include "sim_cc.h"
#endif

#include "cli/commands/commands.h"
#include "os/exit_status.h"

namespace gpulab {

int sim_cc_main(int argc, char** argv) {
#ifdef GPULAB_HAVE_SIM
  return gpulab_sim_cc::sim_cc(std::vector<std::string>(argv + 2, argv + argc), std::cerr);
#else
  (void)argc;
  (void)argv;
  std::cerr << "gpulab sim-cc: this gpulab was built without the CPU backend; run "
               "scripts/setup.sh, which installs what it needs, and rebuild\n";
  return kExitFailed;
#endif
}

Command declare_sim_cc(CLI::App& gpulab) {
  CLI::App* cmd = gpulab.add_subcommand("sim-cc",
                                        "Build a CUDA program for the CPU backend, like nvcc: "
                                        "gpulab sim-cc prog.cu -o prog [-I dir] [-D X] [-O2] ...");
  return {cmd, [] { return kExitFailed; }};  // never parsed: main.cpp runs sim_cc_main first
}

}  // namespace gpulab
