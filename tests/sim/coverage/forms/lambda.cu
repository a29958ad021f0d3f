// The bugs written inside lambdas in the kernels, one of them generic.
#include "corpus.h"

__global__ void oob_bug(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto load = [&](auto j) { return in[j]; };  // expect: out_of_bounds
  if (i < n) out[i] = load(i + 1);
}
__global__ void oob_twin(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto load = [&](auto j) { return j < n ? in[j] : 0.0f; };
  if (i < n) out[i] = load(i + 1);
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  auto put = [&](int k, float v) { s[k] = v; };  // expect: shared_race
  auto get = [&](int k) { return s[k]; };        // expect: shared_race
  put(t, in[t]);
  out[t] = get(corpus::kBlock - 1 - t);
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  auto put = [&](int k, float v) { s[k] = v; };
  auto get = [&](int k) { return s[k]; };
  put(t, in[t]);
  __syncthreads();
  out[t] = get(corpus::kBlock - 1 - t);
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
