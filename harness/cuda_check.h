// Turning CUDA runtime errors into exceptions that say which call failed and why.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gpulab {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void cuda_check(cudaError_t err, const char* what, const char* file, int line);

// After a student's host function: catches launch errors and, with the sync, faults inside
// their kernels (illegal address, misaligned access, ...), attributing them to the student.
void check_student_call(const char* function_name);

}  // namespace gpulab

#define GPULAB_CUDA(call) ::gpulab::cuda_check((call), #call, __FILE__, __LINE__)
