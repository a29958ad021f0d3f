#include "cuda_check.h"

#include "backend_words.h"

namespace gpulab {

void cuda_check(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return;
  throw CudaError(std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ") in " +
                  what + " at " + file + ":" + std::to_string(line));
}

void check_student_call(const char* function_name) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err == cudaSuccess) return;
  throw CudaError(std::string("your ") + function_name + " failed " +
                  where_kernels_run(kHarnessBackend) + ": " + cudaGetErrorName(err) + " (" +
                  cudaGetErrorString(err) + ")" +
                  (err == cudaErrorIllegalAddress
                       ? ". A kernel read or wrote outside an allocation: check your index "
                         "arithmetic and bounds checks."
                   : err == cudaErrorInvalidConfiguration
                       ? ". The launch configuration is invalid: check the grid and block "
                         "sizes (at most 1024 threads per block)."
                       : ""));
}

}  // namespace gpulab
