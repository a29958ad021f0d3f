// The bugs written through references: a reference variable and a reference parameter.
#include "corpus.h"

__device__ void put(float& dst, float v) {
  dst = v;  // expect: shared_race
}

__global__ void oob_bug(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float& next = in[i + 1];
  out[i] = next;  // expect: out_of_bounds
}
__global__ void oob_twin(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float& next = in[i + 1 < n ? i + 1 : i];
  out[i] = i + 1 < n ? next : 0.0f;
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  put(s[t], in[t]);
  float& mirror = s[corpus::kBlock - 1 - t];
  out[t] = mirror;  // expect: shared_race
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  put(s[t], in[t]);
  __syncthreads();
  float& mirror = s[corpus::kBlock - 1 - t];
  out[t] = mirror;
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
