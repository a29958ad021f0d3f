// Template kernels: arguments deduced from the call, given explicitly, and a non-type parameter
// that sizes a __shared__ array; a __device__ function template called from them.
#include <cstdio>

template <typename T>
__device__ T square(T x) {
  return x * x;
}

template <typename T>
__global__ void squares(const T* in, T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = square(in[i]);
}

template <int TILE, typename T>
__global__ void reverse_tiles(const T* in, T* out) {
  __shared__ T tile[TILE];
  int base = blockIdx.x * TILE;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

int main() {
  const int n = 64;
  float hf[n], rf[n];
  double hd[n], rd[n];
  for (int i = 0; i < n; ++i) {
    hf[i] = i;
    hd[i] = 0.5 * i;
  }
  float *df, *of;
  double *dd, *od;
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&of, sizeof hf);
  cudaMalloc(&dd, sizeof hd);
  cudaMalloc(&od, sizeof hd);
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
  squares<<<2, 32>>>(df, of, n);          // T deduced: float
  squares<double><<<2, 32>>>(dd, od, n);  // T given
  cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, od, sizeof rd, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (rf[i] != hf[i] * hf[i] || rd[i] != hd[i] * hd[i]) {
      printf("squares FAILED at %d\n", i);
      return 1;
    }
  }
  reverse_tiles<16><<<n / 16, 16>>>(df, of);  // TILE given, T deduced
  cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (rf[i] != hf[(i / 16) * 16 + 15 - i % 16]) {
      printf("reverse_tiles FAILED at %d\n", i);
      return 1;
    }
  }
  printf("templates OK\n");
  return 0;
}
