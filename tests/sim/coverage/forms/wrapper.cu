// The bugs written through a small array wrapper's operator[] and a member function.
#include "corpus.h"

template <class T>
struct View {
  T* d;
  __device__ T& operator[](int i) const { return d[i]; }
  __device__ T& at(int i) const { return d[i]; }
};

__global__ void oob_bug(const float* in, float* out, int n) {
  View<const float> src{in};
  View<float> dst{out};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src.at(i + 1);  // expect: out_of_bounds
}
__global__ void oob_twin(const float* in, float* out, int n) {
  View<const float> src{in};
  View<float> dst{out};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = i + 1 < n ? src.at(i + 1) : 0.0f;
}
__global__ void race_bug(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  View<float> tile{s};
  int t = threadIdx.x;
  tile[t] = in[t];                        // expect: shared_race
  out[t] = tile[corpus::kBlock - 1 - t];  // expect: shared_race
}
__global__ void race_twin(const float* in, float* out) {
  __shared__ float s[corpus::kBlock];
  View<float> tile{s};
  int t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[corpus::kBlock - 1 - t];
}

int main(int argc, char** argv) {
  return corpus::run(
      argc, argv,
      {[](const float* in, float* out, int n) { oob_bug<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int n) { oob_twin<<<(n + 63) / 64, 64>>>(in, out, n); },
       [](const float* in, float* out, int) { race_bug<<<1, corpus::kBlock>>>(in, out); },
       [](const float* in, float* out, int) { race_twin<<<1, corpus::kBlock>>>(in, out); }});
}
