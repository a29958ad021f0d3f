// What the detectors found: one entry per kind and site (repeats are counted), for tests and
// tools; the same entries go to stderr and to the report as JSON lines (sim/README.md, "Settings").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "vector_types.h"

namespace gpulab_sim {

enum class finding_kind {
  out_of_bounds,       // error: outside an allocation, symbol or shared object
  misaligned,          // error: address not aligned to the access size
  invalid_address,     // error: in no device allocation (host pointer, nullptr, freed)
  uninitialised_read,  // warning: device memory read before anything wrote it
  divergent_barrier,   // error: __syncthreads not reached by all threads, or at two sites
  deadlock,            // error: every live thread blocked
  warp_mask,           // error: a warp operation's mask does not match its callers
  shared_race,         // warning: shared-memory hazard between warps with no __syncthreads
  warp_lockstep,       // warning: hazard inside one warp with no __syncwarp
  shared_limit,        // error: more shared memory than the device has
  kernel_exception,    // error: a C++ exception or __trap() left the kernel
  bad_copy,            // error: a runtime API copy outside its allocation or symbol
  bad_launch,          // error: a launch configuration CUDA refuses (the kernel does not run)
  global_race,         // warning: two threads wrote one global word in a launch, unordered
};
const char* kind_name(finding_kind k);

struct finding {
  finding_kind kind;
  bool error;
  std::string launch_file;  // the kernel's launch site (empty for host API findings)
  int launch_line;
  std::string file;  // where it happened
  int line;
  std::string function;  // the device function containing the access, when known
  dim3 block;            // the first occurrence's block and thread
  dim3 thread;
  std::string message;  // the first occurrence, in words
  std::size_t count;    // occurrences at this site
};

std::vector<finding> findings();
void clear_findings();

}  // namespace gpulab_sim
