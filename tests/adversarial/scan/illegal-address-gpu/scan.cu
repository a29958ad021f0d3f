// Hostile (or merely broken): a kernel writes to an address that is not device memory. On a GPU
// the launch fails with an illegal address and the CUDA context is lost.
#include <cuda_runtime.h>

#include "scan.h"

__global__ void write_nowhere(int* nowhere) {
  nowhere[threadIdx.x] = 42;
}

void scan_int(const int*, int*, int, ScanKind) {
  write_nowhere<<<1, 32>>>(reinterpret_cast<int*>(0x1000));
  cudaDeviceSynchronize();
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
