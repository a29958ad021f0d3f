// The bugs written inside macros' bodies: findings name the use, and the message the definition.
#include "corpus.h"

#define LOAD_NEXT(dst, p, i, n) dst = (p)[(i) + 1]
#define LOAD_NEXT_GUARDED(dst, p, i, n) dst = (i) + 1 < (n) ? (p)[(i) + 1] : 0.0f
#define SHARE(s, t, v) s[t] = (v)
#define MIRROR(s, t) (s[corpus::kBlock - 1 - (t)])

__global__ void oob_bug(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) LOAD_NEXT(out[i], in, i, n);  // expect: out_of_bounds macro=LOAD_NEXT
}
__global__ void oob_twin(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) LOAD_NEXT_GUARDED(out[i], in, i, n);
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  SHARE(s, t, in[t]);     // expect: shared_race macro=SHARE
  out[t] = MIRROR(s, t);  // expect: shared_race macro=MIRROR
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  int t = threadIdx.x;
  SHARE(s, t, in[t]);
  __syncthreads();
  out[t] = MIRROR(s, t);
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
