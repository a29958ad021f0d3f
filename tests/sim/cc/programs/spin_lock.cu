// A global spin lock around plain reads and writes (particle-grid's handout, "One lock"): taken
// with atomicCAS, released with atomicExch after a fence. Correct, so the CPU backend reports
// no race on the list or its count.
#include <cstdio>

__global__ void append_all(int* lock, int* count, int* list) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  const int at = *count;
  list[at] = i;
  *count = at + 1;
  __threadfence();
  atomicExch(lock, 0);
}

int main() {
  const int blocks = 8, threads = 64, n = blocks * threads;
  int *lock, *count, *list;
  cudaMalloc(&lock, sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&list, n * sizeof(int));
  cudaMemset(lock, 0, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  append_all<<<blocks, threads>>>(lock, count, list);
  int got = 0, h[blocks * threads];
  cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h, list, sizeof h, cudaMemcpyDeviceToHost);
  bool seen[blocks * threads] = {false};
  for (int k = 0; k < got && k < n; ++k)
    if (h[k] >= 0 && h[k] < n) seen[h[k]] = true;
  for (int k = 0; k < n; ++k)
    if (got != n || !seen[k]) {
      printf("FAILED: %d of %d appended, %d missing\n", got, n, k);
      return 1;
    }
  printf("spin lock OK\n");
  return 0;
}
