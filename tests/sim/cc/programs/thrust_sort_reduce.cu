// Thrust on its C++ back-end: sort and reduce device vectors, a transform with a functor.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>

struct square {
  __host__ __device__ int operator()(int x) const { return x * x; }
};

int main() {
  thrust::host_vector<int> h(1000);
  for (int i = 0; i < 1000; ++i) h[i] = (i * 7919) % 1000;
  thrust::device_vector<int> d = h;
  thrust::sort(d.begin(), d.end());
  thrust::host_vector<int> sorted = d;
  for (int i = 0; i < 1000; ++i) {
    if (sorted[i] != i) {
      printf("sort FAILED at %d: %d\n", i, (int)sorted[i]);
      return 1;
    }
  }
  int sum = thrust::reduce(d.begin(), d.end(), 0);
  thrust::device_vector<int> sq(d.size());
  thrust::transform(d.begin(), d.end(), sq.begin(), square());
  long long sumsq = thrust::reduce(sq.begin(), sq.end(), 0LL);
  if (sum != 999 * 1000 / 2 || sumsq != 332833500LL) {
    printf("reduce FAILED: %d %lld\n", sum, sumsq);
    return 1;
  }
  printf("thrust OK\n");
  return 0;
}
