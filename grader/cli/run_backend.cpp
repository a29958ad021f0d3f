#include "cli/run_backend.h"

namespace gpulab {

RunBackend choose_run_backend(const RunBackendFacts& f) {
  if (f.given) return {*f.given, ""};
  if (f.gpu_usable && f.cuda_runners_built) return {Backend::cuda, ""};
  if (!f.gpu_part_selected && f.cuda_runners_built) return {Backend::cuda, ""};
  const std::string no_gpu = "no usable GPU (" + f.gpu_problem + ")";
  if (!f.sim_built)
    return {
        Backend::cuda,
        f.gpu_part_selected
            ? "gpulab: " + no_gpu +
                  " and this gpulab has no CPU backend, so GPU parts are not checked; "
                  "to check them on the CPU, run scripts/setup.sh (it installs what "
                  "the CPU backend needs) and build with `cmake --preset student && cmake --build "
                  "--preset student`"
            : ""};
  std::string note = "gpulab: ";
  if (!f.gpu_usable)
    note += no_gpu + ": running on the CPU backend (sim), which checks kernels but times nothing";
  else
    note +=
        "this gpulab was built for the CPU backend alone: running on it (sim), which checks "
        "kernels but times nothing";
  if (f.cuda_runners_built)
    note += f.timed_cpu_part_selected
                ? "; --backend cuda forces the GPU (without one it times the CPU parts alone)"
                : "; --backend cuda forces the GPU";
  else
    note += "; to use a GPU, build gpulab with nvcc (-DGPULAB_CUDA_RUNNERS=ON)";
  return {Backend::sim, note};
}

}  // namespace gpulab
