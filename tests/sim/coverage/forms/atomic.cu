// The bugs written with atomics behind the student's own wrappers.
#include "corpus.h"

__device__ void add_to(float* p, float v) {
  atomicAdd(p, v);  // expect: shared_race
}
__device__ float take(float* p) {
  return atomicExch(p, 0.0f);  // expect: out_of_bounds
}

__global__ void oob_bug(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) add_to(out + i, take(const_cast<float*>(in) + i + 1));
}
__global__ void oob_twin(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) add_to(out + i, in[i + 1]);
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  s[t] = 0.0f;  // expect: shared_race
  add_to(&s[corpus::kBlock - 1 - t], in[corpus::kBlock - 1 - t]);
  __syncthreads();
  out[t] = s[t];
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  s[t] = 0.0f;
  __syncthreads();
  add_to(&s[corpus::kBlock - 1 - t], in[corpus::kBlock - 1 - t]);
  __syncthreads();
  out[t] = s[corpus::kBlock - 1 - t];
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
