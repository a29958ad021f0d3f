// The bugs written through struct members: pointers in a parameter struct, an array in a shared
// struct.
#include "corpus.h"

struct Args {
  const float* in;
  float* out;
  int n;
};
struct Tile {
  int filled;
  float v[corpus::kBlock];
};

__global__ void oob_kernel(Args a, bool guard) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  if (!guard)
    a.out[i] = a.in[i + 1];  // expect: out_of_bounds
  else
    a.out[i] = i + 1 < a.n ? a.in[i + 1] : 0.0f;
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ Tile tile;
  Tile* p = &tile;
  int t = threadIdx.x;
  p->v[t] = in[t];                          // expect: shared_race
  out[t] = tile.v[corpus::kBlock - 1 - t];  // expect: shared_race
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ Tile tile;
  Tile* p = &tile;
  int t = threadIdx.x;
  p->v[t] = in[t];
  __syncthreads();
  out[t] = tile.v[corpus::kBlock - 1 - t];
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) {
         oob_kernel<<<(n + 63) / 64, 64>>>(Args{in, out, n}, false);
       },
       [](const float* in, float* out, int n) {
         oob_kernel<<<(n + 63) / 64, 64>>>(Args{in, out, n}, true);
       },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
