// Host code with x86 intrinsics beside a kernel, as nvcc builds it: <xmmintrin.h> and
// <immintrin.h> (whose _mm_sfence, _mm_pause, _mm_getcsr ... clang declares as built-ins), SSE
// arithmetic, a prefetch and fences, an AVX function enabled by its target attribute, aligned
// allocation; a __host__ __device__ function and a kernel in the same file.
#include <immintrin.h>
#include <x86intrin.h>
#include <xmmintrin.h>

#include <cmath>
#include <cstdio>

__host__ __device__ float square(float x) {
  return x * x;
}

__global__ void roots(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sqrtf(square(static_cast<float>(i)));
}

__attribute__((target("avx"))) float sum8(const float* v) {
  const __m256 a = _mm256_loadu_ps(v);
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}

int main() {
  const int n = 8;
  float* host = static_cast<float*>(_mm_malloc(n * sizeof(float), 32));
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i + 1);
  _mm_prefetch(reinterpret_cast<const char*>(host), _MM_HINT_T0);
  const __m128 twice = _mm_mul_ps(_mm_load_ps(host), _mm_set1_ps(2.0f));
  _mm_store_ps(host, twice);  // 2 4 6 8 5 6 7 8
  _mm_sfence();
  _mm_lfence();
  _mm_mfence();
  _mm_pause();
  _mm_setcsr(_mm_getcsr());
  const float sse_avx = __builtin_cpu_supports("avx") ? sum8(host) : 46.0f;

  float* device = nullptr;
  cudaMalloc(&device, n * sizeof(float));
  roots<<<1, 32>>>(device, n);
  float back[n];
  cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost);
  cudaFree(device);
  _mm_free(host);

  bool ok = sse_avx == 46.0f;
  for (int i = 0; i < n; ++i) ok = ok && back[i] == static_cast<float>(i);
  std::printf(ok ? "x86 intrinsics OK\n" : "x86 intrinsics WRONG: %g\n", sse_avx);
  return ok ? 0 : 1;
}
