// The bugs written plainly.
#include "corpus.h"

__global__ void oob_bug(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];  // expect: out_of_bounds
}
__global__ void oob_twin(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + 1 < n ? in[i + 1] : 0.0f;
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  s[t] = in[t];                        // expect: shared_race
  out[t] = s[corpus::kBlock - 1 - t];  // expect: shared_race
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  s[t] = in[t];
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
