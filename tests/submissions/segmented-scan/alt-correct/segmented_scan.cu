// An alternative correct submission, written the textbook way and unlike the reference:
// scan-then-propagate, 512 threads per block scanning 1024 elements in shared memory with the
// element-level Brent-Kung segmented scan (Sengupta, Harris, Zhang and Owens 2007), the blocks'
// (sum, flag) pairs scanned by the same code recursively, and their carries added back to each
// block's elements before its first head. SpMV materializes what the handout describes: the
// products, a head-flag array set at the row starts, the inclusive segmented scan of the
// products, and each row's last element.
#include <cuda_runtime.h>

#include "segmented_scan.h"

namespace {

constexpr int kThreads = 512;
constexpr int kN = 2 * kThreads;  // elements per block

// Scans the block's kN elements (exclusive, in shared memory) and writes the block-local
// inclusive or exclusive result; the block's pair (sum since its last head, any head) and the
// position of its first head (kN: none) go to agg_sum, agg_head and first_head.
__global__ void block_scan(const float* in, const uint8_t* flags, int n, float* out, bool inclusive,
                           float* agg_sum, uint8_t* agg_head, int* first_head) {
  __shared__ float s[kN];
  __shared__ float x[kN];
  __shared__ int f[kN];   // OR-ed in the up-sweep
  __shared__ int fo[kN];  // the original flags
  __shared__ int first;
  const long long base = static_cast<long long>(blockIdx.x) * kN;
  if (threadIdx.x == 0) first = kN;
  __syncthreads();
  for (int i = threadIdx.x; i < kN; i += kThreads) {
    const long long k = base + i;
    const float v = k < n ? in[k] : 0.0f;
    const int h = k < n && (k == 0 || flags[k] != 0);
    s[i] = v;
    x[i] = v;
    f[i] = h;
    fo[i] = h;
    if (h) atomicMin(&first, i);
  }
  int offset = 1;
  for (int d = kN / 2; d > 0; d /= 2) {
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < d) {
      const int ai = offset * (2 * threadIdx.x + 1) - 1, bi = offset * (2 * threadIdx.x + 2) - 1;
      if (!f[bi]) s[bi] += s[ai];
      f[bi] |= f[ai];
    }
    offset *= 2;
  }
  if (threadIdx.x == 0) {
    agg_sum[blockIdx.x] = s[kN - 1];
    agg_head[blockIdx.x] = static_cast<uint8_t>(f[kN - 1]);
    first_head[blockIdx.x] = first;
    s[kN - 1] = 0;
  }
  for (int d = 1; d < kN; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < d) {
      const int ai = offset * (2 * threadIdx.x + 1) - 1, bi = offset * (2 * threadIdx.x + 2) - 1;
      const float t = s[ai];
      s[ai] = s[bi];
      if (fo[ai + 1])
        s[bi] = 0;
      else if (f[ai])
        s[bi] = t;
      else
        s[bi] += t;
      f[ai] = 0;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kN; i += kThreads) {
    const long long k = base + i;
    if (k < n) out[k] = inclusive ? s[i] + x[i] : s[i];
  }
}

// Adds block b's carry-in (the inclusive scan of the pairs at b - 1) to its elements before its
// first head. Block b of this grid handles scan block b + 1.
__global__ void propagate(float* out, int n, const float* scanned_pairs, const int* first_head) {
  const int b = blockIdx.x + 1;
  const float carry = scanned_pairs[b - 1];
  const int stop = first_head[b];
  for (int i = threadIdx.x; i < stop; i += kThreads) {
    const long long k = static_cast<long long>(b) * kN + i;
    if (k < n) out[k] = carry + out[k];
  }
}

void scan(const float* in, const uint8_t* flags, float* out, int n, bool inclusive) {
  const int blocks = static_cast<int>((static_cast<long long>(n) + kN - 1) / kN);
  float *agg_sum, *scanned;
  uint8_t* agg_head;
  int* first_head;
  cudaMalloc(&agg_sum, blocks * sizeof(float));
  cudaMalloc(&scanned, blocks * sizeof(float));
  cudaMalloc(&agg_head, blocks);
  cudaMalloc(&first_head, blocks * sizeof(int));
  block_scan<<<blocks, kThreads>>>(in, flags, n, out, inclusive, agg_sum, agg_head, first_head);
  if (blocks > 1) {
    scan(agg_sum, agg_head, scanned, blocks, true);
    propagate<<<blocks - 1, kThreads>>>(out, n, scanned, first_head);
  }
  cudaFree(agg_sum);
  cudaFree(scanned);
  cudaFree(agg_head);
  cudaFree(first_head);
}

__global__ void products(const float* values, const int* col_idx, const float* x, float* p,
                         int nnz) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz) p[k] = values[k] * x[col_idx[k]];
}

__global__ void mark_row_starts(const int* row_ptr, int n_rows, uint8_t* heads) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n_rows && row_ptr[r] < row_ptr[r + 1]) heads[row_ptr[r]] = 1;
}

__global__ void row_ends(const int* row_ptr, int n_rows, const float* scanned, float* y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n_rows) y[r] = row_ptr[r] < row_ptr[r + 1] ? scanned[row_ptr[r + 1] - 1] : 0.0f;
}

}  // namespace

void segmented_scan_inclusive(const float* in, const uint8_t* flags, float* out, int n) {
  scan(in, flags, out, n, true);
}

void segmented_scan_exclusive(const float* in, const uint8_t* flags, float* out, int n) {
  scan(in, flags, out, n, false);
}

void spmv_csr(CsrMatrix a, const float* x, float* y) {
  const int row_blocks = (a.n_rows + 255) / 256;
  if (a.nnz == 0) {
    row_ends<<<row_blocks, 256>>>(a.row_ptr, a.n_rows, nullptr, y);
    return;
  }
  float *p, *scanned;
  uint8_t* heads;
  cudaMalloc(&p, a.nnz * sizeof(float));
  cudaMalloc(&scanned, a.nnz * sizeof(float));
  cudaMalloc(&heads, a.nnz);
  products<<<(a.nnz + 255) / 256, 256>>>(a.values, a.col_idx, x, p, a.nnz);
  cudaMemset(heads, 0, a.nnz);
  mark_row_starts<<<row_blocks, 256>>>(a.row_ptr, a.n_rows, heads);
  scan(p, heads, scanned, a.nnz, true);
  row_ends<<<row_blocks, 256>>>(a.row_ptr, a.n_rows, scanned, y);
  cudaFree(p);
  cudaFree(scanned);
  cudaFree(heads);
}
