// gpulab-sim-bench's unchecked half, built with -DGPULAB_SIM_UNCHECKED: the kernels of
// bench_kernels.h launched as the rewriter launches a kernel it proved barrier-free.
#include "bench_kernels.h"

double unchecked_saxpy_seconds(float* y, const float* x, int n, int block, int reps) {
  return best_seconds([&] { LAUNCH_FREE(saxpy_k, n / block, block, y, x, 0.5f, n); }, reps);
}

double unchecked_stencil_seconds(float* out, const float* in, const float* w, int n, int block,
                                 int reps) {
  return best_seconds([&] { LAUNCH_FREE(stencil_k, n / block, block, out, in, w, n); }, reps);
}
