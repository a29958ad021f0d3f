// The bugs written with vector types: float4 loads through reinterpret_cast, float2 in shared
// memory. Thread j moves in[4j .. 4j+3] to out[4j-1 .. 4j+2].
#include "corpus.h"

__device__ void spread(float4 v, float* out, int base) {
  if (base > 0) out[base - 1] = v.x;
  out[base] = v.y;
  out[base + 1] = v.z;
  out[base + 2] = v.w;
}

__global__ void oob_bug(const float* in, float* out, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < (n + 3) / 4) {
    float4 v = reinterpret_cast<const float4*>(in)[j];  // expect: out_of_bounds
    spread(v, out, 4 * j);
  }
}
__global__ void oob_twin(const float* in, float* out, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n / 4) {
    spread(*reinterpret_cast<const float4*>(in + 4 * j), out, 4 * j);
  } else if (j == n / 4) {  // the tail, one element at a time
    for (int i = 4 * j; i < n; ++i) out[i - 1] = in[i];
    out[n - 1] = 0.0f;
  }
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float2 s[corpus::kBlock];
  int t = threadIdx.x;
  s[t] = make_float2(in[t], 0.0f);       // expect: shared_race
  out[t] = s[corpus::kBlock - 1 - t].x;  // expect: shared_race
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float2 s[corpus::kBlock];
  int t = threadIdx.x;
  s[t] = make_float2(in[t], 0.0f);
  __syncthreads();
  out[t] = s[corpus::kBlock - 1 - t].x;
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
