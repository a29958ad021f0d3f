// Launch arguments with a lambda (capturing by reference), macros in the configuration and
// the arguments, a launch written inside a macro, and a kernel taking a functor.
#include <cstdio>

#define THREADS 64
#define BLOCKS_FOR(n) (((n) + THREADS - 1) / THREADS)
#define SCALE(x) ((x) * 2)
#define LAUNCH_FILL(p, n, v) fill<<<BLOCKS_FOR(n), THREADS>>>(p, n, v)

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

struct AddConst {
  int c;
  __device__ int operator()(int x) const { return x + c; }
};

template <class F>
__global__ void apply(int* p, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

int main() {
  const int n = 200;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  int base = 5;
  auto start = [&](int k) { return base * k; };
  fill<<<BLOCKS_FOR(n), THREADS>>>(d, n, start(SCALE(1)));  // 10 + i
  apply<<<BLOCKS_FOR(n), THREADS>>>(d, n, AddConst{3});     // 13 + i
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (h[i] != 13 + i) {
      printf("FAILED at %d: %d\n", i, h[i]);
      return 1;
    }
  }
  LAUNCH_FILL(d, n, 7);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (h[0] != 7 || h[n - 1] != 7 + n - 1) {
    printf("FAILED: macro launch\n");
    return 1;
  }
  printf("lambda and macro launches OK\n");
  return 0;
}
