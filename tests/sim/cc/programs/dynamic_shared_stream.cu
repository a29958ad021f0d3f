// extern __shared__ dynamic shared memory sized at launch, launched on a created stream.
#include <cstdio>

__global__ void block_sums(const float* in, float* out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) s += buf[i];
    out[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 8, threads = 96, n = blocks * threads;
  float h[n], sums[blocks];
  for (int i = 0; i < n; ++i) h[i] = (i % threads) + 1;
  float *in, *out;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof sums);
  cudaMemcpyAsync(in, h, sizeof h, cudaMemcpyHostToDevice, stream);
  block_sums<<<blocks, threads, threads * sizeof(float), stream>>>(in, out);
  cudaMemcpyAsync(sums, out, sizeof sums, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  for (int b = 0; b < blocks; ++b) {
    if (sums[b] != threads * (threads + 1) / 2) {
      printf("FAILED: block %d sum %f\n", b, sums[b]);
      return 1;
    }
  }
  printf("dynamic shared OK\n");
  return 0;
}
