// The cost model (sim/README.md, "The cost model"): what a GPU would pay for each kernel that
// ran here, counted exactly from the instrumented accesses. Threads run one after another on
// the CPU, so a warp's memory instruction is rebuilt from its lanes: the k-th access that lane
// makes at one site (file, line, kind) belongs to the same warp request as the k-th access every
// other lane of its warp makes there. A request then costs what the GPU charges for it: its
// distinct 32-byte sectors (global memory), its wavefronts (shared memory: the most distinct
// 4-byte words any one bank must serve, and for an atomic at least its lanes on one address),
// and for a global atomic, the most lanes on one address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab_sim {

// One kernel's costs over a run, summed over its launches; a kernel is its launch site.
struct kernel_cost {
  std::string file;  // where it was launched
  int line = 0;
#define GPULAB_SIM_COST(name, what) std::uint64_t name = 0;
#include "costs.def"
};

// The GPU the estimate is for, named: the whole model's constants in one place.
struct gpu_constants {
  const char* name;
  double dram_bytes_per_s;         // global memory bandwidth
  double shared_wavefronts_per_s;  // one per SM per clock
  double atomics_per_s;            // same-address updates one after another (L2)
  double launch_s;                 // a launch's fixed cost
};
// H100 SXM5: HBM3 3.35 TB/s, 132 SMs at 1.98 GHz, an L2 atomic unit's clock, ~3 us per launch.
inline constexpr gpu_constants h100_sxm{"H100 SXM", 3.35e12, 132 * 1.98e9, 1.98e9 / 2, 3e-6};

// A roofline-style estimate of a kernel's time on `gpu`: the slowest of its memory traffic
// (every sector moved once), its shared-memory wavefronts and its serialised global atomics,
// plus its launches. An estimate, not a measurement: caches, latency and occupancy are not
// modelled.
double estimate_seconds(const kernel_cost& c, const gpu_constants& gpu = h100_sxm);

// Starts counting from zero (the runtime's tests; a run sets GPULAB_SIM_PROFILE=1 instead).
void profile_start();
// The costs so far, one per kernel in the order of their first launch; counting stops.
std::vector<kernel_cost> profile_take();

}  // namespace gpulab_sim
