// gpulab's commands, one file each in this folder: each declares its subcommand and its options
// on the gpulab app (the shared ones through shared_options.h, each declared once) and returns
// what runs when it is the command given. cli/main.cpp lists them and dispatches; nothing else.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "backend_words.h"

namespace gpulab {

struct Command {
  CLI::App* app = nullptr;  // its subcommand
  std::function<int()> run;
};

// Every command, in the order `gpulab --help` lists them (the completion script's question,
// __complete, is main.cpp's own).
#define GPULAB_COMMANDS(X) \
  X(labs)                  \
  X(sim_cc)                \
  X(sim_bench)             \
  X(run)                   \
  X(grade)                 \
  X(grade_all)             \
  X(package)               \
  X(dist)                  \
  X(time)                  \
  X(bench)                 \
  X(bench_grader)          \
  X(datasets)              \
  X(cache)                 \
  X(figures)               \
  X(rubric)                \
  X(completion)

#define GPULAB_DECLARE_COMMAND(name) Command declare_##name(CLI::App& gpulab);
GPULAB_COMMANDS(GPULAB_DECLARE_COMMAND)
#undef GPULAB_DECLARE_COMMAND

// gpulab sim-cc <nvcc's arguments>, which CLI11 does not parse (sim_cc.cpp).
int sim_cc_main(int argc, char** argv);

// This gpulab builds runners with nvcc; without (the student preset) the CPU backend is the one
// to use, and the backend options say so.
#ifdef GPULAB_HAVE_CUDA_RUNNERS
inline constexpr bool kCudaRunnersBuilt = true;
#else
inline constexpr bool kCudaRunnersBuilt = false;
#endif
inline constexpr Backend kBuiltBackend = kCudaRunnersBuilt ? Backend::cuda : Backend::sim;

}  // namespace gpulab
