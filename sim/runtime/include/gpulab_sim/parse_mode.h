// sim.h as clang reads it when the rewriter parses a .cu file in CUDA mode (host-only, no CUDA
// install): the attributes get their CUDA meaning, so that clang knows device code, shared and
// constant variables, and a launch-configuration function is declared, so that clang accepts
// `k<<<...>>>(...)`. g++ compiles the rewritten file against sim.h's plain C++ branch instead.
// Self-contained (it needs no runtime type), so it may be included anywhere in sim.h.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __constant__ __attribute__((constant))
#define __shared__ __attribute__((shared))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
// Empty, not __attribute__((noinline)): libstdc++ spells __attribute__((__noinline__)).
#define __noinline__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))

namespace gpulab_sim_parse {
// Accepts any launch-configuration argument: g++ checks the types later, when it compiles the
// rewritten launch (which converts the grid and block to dim3).
struct any_config_arg {
  template <class T>
  any_config_arg(const T&) {}
};
}  // namespace gpulab_sim_parse

// clang lowers K<<<G, B, S, T>>>(...) to a call of one of these (which one depends on the CUDA
// version it assumes). Never called: the rewriter replaces every launch.
int cudaConfigureCall(gpulab_sim_parse::any_config_arg grid, gpulab_sim_parse::any_config_arg block,
                      gpulab_sim_parse::any_config_arg shmem = 0,
                      gpulab_sim_parse::any_config_arg stream = 0);
int __cudaPushCallConfiguration(gpulab_sim_parse::any_config_arg grid,
                                gpulab_sim_parse::any_config_arg block,
                                gpulab_sim_parse::any_config_arg shmem = 0,
                                gpulab_sim_parse::any_config_arg stream = 0);
