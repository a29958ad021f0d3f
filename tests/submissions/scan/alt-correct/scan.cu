// An alternative correct scan: the textbook hierarchy (scan each tile, write its total, scan the
// totals, add them back), 512 threads x 2 items per tile of 1024, Brent-Kung over the whole tile
// in shared memory, and an in-place Hillis-Steele (read, barrier, write, barrier) for the
// comparison part. Correct, slower than the reference.
#include "scan.h"

namespace {

constexpr int kThreads = 512;
constexpr int kTile = 2 * kThreads;

template <class T>
struct Acc {
  using type = T;
};
template <>
struct Acc<int> {
  using type = unsigned;
};

template <class T, class A>
__global__ void block_scan(const T* in, T* out, int n, A* totals, bool inclusive) {
  __shared__ A s[kTile];
  const int t = threadIdx.x;
  const long base = static_cast<long>(blockIdx.x) * kTile;
  A mine[2];
  for (int h = 0; h < 2; ++h) {
    const long g = base + t + h * kThreads;
    mine[h] = g < n ? static_cast<A>(in[g]) : A(0);
    s[t + h * kThreads] = mine[h];
  }
  int offset = 1;
  for (int d = kTile / 2; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  __syncthreads();
  if (t == 0) {
    if (totals) totals[blockIdx.x] = s[kTile - 1];
    s[kTile - 1] = A(0);
  }
  for (int d = 1; d < kTile; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      const A left = s[ai];
      s[ai] = s[bi];
      s[bi] += left;
    }
  }
  __syncthreads();
  for (int h = 0; h < 2; ++h) {
    const long g = base + t + h * kThreads;
    if (g < n) out[g] = static_cast<T>(s[t + h * kThreads] + (inclusive ? mine[h] : A(0)));
  }
}

template <class T, class A>
__global__ void add_block_prefix(T* out, int n, const A* prefix) {
  const long g = static_cast<long>(blockIdx.x) * kTile + threadIdx.x;
  if (g < n) out[g] = static_cast<T>(static_cast<A>(out[g]) + prefix[blockIdx.x]);
}

template <class T>
void hierarchical(const T* in, T* out, int n, bool inclusive) {
  using A = typename Acc<T>::type;
  const int tiles = (n + kTile - 1) / kTile;
  A* totals = nullptr;
  if (tiles > 1) cudaMalloc(&totals, tiles * sizeof(A));
  block_scan<T, A><<<tiles, kThreads>>>(in, out, n, totals, inclusive);
  if (tiles > 1) {
    hierarchical<A>(totals, totals, tiles, false);
    add_block_prefix<T, A><<<(n + kTile - 1) / kTile, kTile>>>(out, n, totals);
    cudaFree(totals);
  }
}

constexpr int kHs = 256;

__global__ void hs_block(const unsigned* in, unsigned* out, int n, unsigned* totals) {
  __shared__ unsigned s[kHs];
  const int t = threadIdx.x;
  const long g = static_cast<long>(blockIdx.x) * kHs + t;
  s[t] = g < n ? in[g] : 0u;
  for (int offset = 1; offset < kHs; offset *= 2) {
    __syncthreads();
    const unsigned add = t >= offset ? s[t - offset] : 0u;
    __syncthreads();
    s[t] += add;
  }
  if (g < n) out[g] = s[t];
  if (totals && t == kHs - 1) totals[blockIdx.x] = s[t];
}

__global__ void hs_add(unsigned* out, int n, const unsigned* inclusive_totals) {
  const long g = static_cast<long>(blockIdx.x) * kHs + threadIdx.x;
  if (blockIdx.x > 0 && g < n) out[g] += inclusive_totals[blockIdx.x - 1];
}

void hs(const unsigned* in, unsigned* out, int n) {
  const int tiles = (n + kHs - 1) / kHs;
  unsigned* totals = nullptr;
  if (tiles > 1) cudaMalloc(&totals, tiles * sizeof(unsigned));
  hs_block<<<tiles, kHs>>>(in, out, n, totals);
  if (tiles > 1) {
    hs(totals, totals, tiles);
    hs_add<<<tiles, kHs>>>(out, n, totals);
    cudaFree(totals);
  }
}

}  // namespace

void scan_int(const int* in, int* out, int n, ScanKind kind) {
  hierarchical(in, out, n, kind == ScanKind::inclusive);
}

void scan_float(const float* in, float* out, int n, ScanKind kind) {
  hierarchical(in, out, n, kind == ScanKind::inclusive);
}

void scan_int_hillis_steele(const int* in, int* out, int n) {
  hs(reinterpret_cast<const unsigned*>(in), reinterpret_cast<unsigned*>(out), n);
}
