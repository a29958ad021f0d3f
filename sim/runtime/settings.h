// The runtime's settings (sim/README.md, "Settings"), read from GPULAB_SIM_* once, at start,
// before any of the student's code runs, and then taken out of the environment: what a
// program does to its environment later changes nothing the runtime does.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpulab_sim::detail {

enum class block_order { natural, reverse, shuffle };

struct Settings {
  unsigned threads = 0;  // GPULAB_SIM_THREADS: OS threads for blocks; 0: one per core (capped)
  block_order order = block_order::natural;  // GPULAB_SIM_BLOCK_ORDER
  std::uint64_t seed = 1;                    // GPULAB_SIM_SEED: the shuffle's
  std::size_t stack_kb = 128;                // GPULAB_SIM_STACK_KB: each CUDA thread's stack
};

const Settings& settings();

// Reads the variables again and opens the report they name, as at start (then unsets them).
// For the runtime's own tests, which vary the settings within one process; grading refuses a
// submission that calls it (grader/build/startup_policy.h).
void reload_settings();

}  // namespace gpulab_sim::detail
