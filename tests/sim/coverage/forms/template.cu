// The bugs written in templates whose types say nothing until instantiated.
#include "corpus.h"

template <class Ptr>
__device__ float next_of(Ptr p, int i) {
  return p[i + 1];  // expect: out_of_bounds
}
template <class Buf, class V>
__device__ void store(Buf s, int t, V v) {
  s[t] = v;  // expect: shared_race
}
template <class Buf>
__device__ float mirror_of(Buf s, int t) {
  return s[corpus::kBlock - 1 - t];  // expect: shared_race
}

template <class Ptr>
__global__ void oob_bug(Ptr in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = next_of(in, i);
}
template <class Ptr>
__global__ void oob_twin(Ptr in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + 1 < n ? next_of(in, i) : 0.0f;
}
template <int B>
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[B];
  int t = threadIdx.x;
  store(s, t, in[t]);
  out[t] = mirror_of(s, t);
}
template <int B>
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[B];
  int t = threadIdx.x;
  store(s, t, in[t]);
  __syncthreads();
  out[t] = mirror_of(s, t);
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) {
         race_bug<corpus::kBlock><<<1, corpus::kBlock>>>(in, out);
       },
       [](const float* in, float* out, int) {
         race_twin<corpus::kBlock><<<1, corpus::kBlock>>>(in, out);
       }});
}
