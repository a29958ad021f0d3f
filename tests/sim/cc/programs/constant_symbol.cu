// __constant__ coefficients set with cudaMemcpyToSymbol, a __device__ counter read back with
// cudaMemcpyFromSymbol.
#include <cstdio>

__constant__ float coeffs[4];
__device__ int calls;

__global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3]));
    atomicAdd(&calls, 1);
  }
}

int main() {
  const int n = 100;
  float hc[4] = {1, 2, 3, 4}, hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = i * 0.25f;
  int zero = 0;
  cudaMemcpyToSymbol(coeffs, hc, sizeof hc);
  cudaMemcpyToSymbol(calls, &zero, sizeof zero);
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  poly<<<4, 32>>>(x, y, n);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int count = 0;
  cudaMemcpyFromSymbol(&count, calls, sizeof count);
  for (int i = 0; i < n; ++i) {
    float v = hx[i], want = 1 + v * (2 + v * (3 + v * 4));
    if (hy[i] != want) {
      printf("FAILED at %d: %f != %f\n", i, hy[i], want);
      return 1;
    }
  }
  if (count != n) {
    printf("FAILED: %d calls\n", count);
    return 1;
  }
  printf("constant memory OK\n");
  return 0;
}
