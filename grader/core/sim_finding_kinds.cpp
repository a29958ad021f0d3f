#include "core/sim_finding_kinds.h"

namespace gpulab {

namespace {

// The table's words as values.
#define GPULAB_SIM_SEVERITY_error true
#define GPULAB_SIM_SEVERITY_warning false
#define GPULAB_SIM_GRADING_fails true
#define GPULAB_SIM_GRADING_passes false

// An error stopped the kernel, so its outputs are not the program's: it must fail grading.
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice)    \
  static_assert(!GPULAB_SIM_SEVERITY_##severity || GPULAB_SIM_GRADING_##grading, \
                "finding_kinds.def: the error " #name " must fail grading");
#include <gpulab_sim/finding_kinds.def>

}  // namespace

const std::vector<SimFindingKind>& sim_finding_kinds() {
  static const std::vector<SimFindingKind> kinds = {
#define GPULAB_SIM_FINDING(name, severity, grading, cuda_error, what, advice) \
  {#name, GPULAB_SIM_SEVERITY_##severity, GPULAB_SIM_GRADING_##grading},
#include <gpulab_sim/finding_kinds.def>
  };
  return kinds;
}

#undef GPULAB_SIM_SEVERITY_error
#undef GPULAB_SIM_SEVERITY_warning
#undef GPULAB_SIM_GRADING_fails
#undef GPULAB_SIM_GRADING_passes

const SimFindingKind* sim_finding_kind(const std::string& kind) {
  for (const auto& k : sim_finding_kinds())
    if (kind == k.name) return &k;
  return nullptr;
}

bool sim_finding_fails(const std::string& kind) {
  const SimFindingKind* k = sim_finding_kind(kind);
  return !k || k->fails_grading;
}

}  // namespace gpulab
