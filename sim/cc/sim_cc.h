// gpulab sim-cc: an nvcc-like driver that builds a CUDA program for the CPU backend. Each .cu
// is rewritten by gpulab-sim-rewrite, the result compiled with g++ against the sim headers, and
// everything linked with libgpulab_sim.a:
//   gpulab-sim-cc prog.cu [more.cu|.cpp|.o] -o prog [-I dir] [-D X[=Y]] [-O2] [-c] [-g] ...
// nvcc-only options (-arch, -gencode, --use_fast_math, -lineinfo, ...) are accepted and ignored;
// -Xcompiler options go to g++.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpulab_sim_cc {

// Where the pieces are: defaults from the build tree, each overridable by the environment
// variable named beside it.
struct Paths {
  std::string rewriter;      // GPULAB_SIM_REWRITER: the gpulab-sim-rewrite binary
  std::string include_dir;   // GPULAB_SIM_INCLUDE: sim/runtime/include
  std::string library;       // GPULAB_SIM_LIB: libgpulab_sim.a
  std::string cxx;           // GPULAB_SIM_CXX: the C++ compiler (g++)
  std::string cccl_include;  // GPULAB_SIM_CCCL_INCLUDE: Thrust/CUB headers ("" for none)
};
Paths default_paths();

// Runs the driver on nvcc-style arguments (without the program name). Messages from the
// rewriter and the compiler go to `err`. Returns 0 on success, else an exit status.
int sim_cc(const std::vector<std::string>& args, std::ostream& err);
int sim_cc(const std::vector<std::string>& args, std::ostream& err, const Paths& paths);

}  // namespace gpulab_sim_cc
