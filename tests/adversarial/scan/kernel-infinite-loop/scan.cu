// Hostile: a kernel that waits for a flag no thread ever sets. The grader kills the run at its
// time limit, skips the part's other datasets and grades on.
#include <cuda_runtime.h>

#include "scan.h"

__global__ void wait_for_flag(volatile int* flag) {
  while (*flag == 0) {
  }
}

void scan_int(const int*, int*, int, ScanKind) {
  int* flag = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  wait_for_flag<<<1, 32>>>(flag);
  cudaDeviceSynchronize();
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
