// scan_float in per-thread serial chunks: each thread owns kChunk consecutive items. Pass 1: each
// thread sums its chunk serially; the chunk totals are scanned (exclusive) by this same method,
// recursively; pass 2: each thread scans its chunk again with a running sum that starts at its
// carry. Every output is a chain of up to kChunk adds on top of the carries' own chains: the
// longest serial chains of the honest orders after a single loop.
#include <cuda_runtime.h>

#include "scan.h"

namespace serial_chunks {

constexpr int kChunk = 1024;
constexpr int kThreads = 128;

// The end of a range that would run past n.
__device__ size_t end_of(size_t end, int n) {
  return end < static_cast<size_t>(n) ? end : static_cast<size_t>(n);
}

__global__ void chunk_totals(const float* in, int n, float* totals) {
  const size_t c = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  const size_t begin = c * kChunk;
  if (begin >= static_cast<size_t>(n)) return;
  const size_t end = end_of(begin + kChunk, n);
  float sum = 0.0f;
  for (size_t i = begin; i < end; ++i) sum += in[i];
  totals[c] = sum;
}

// In place is safe: each item is read before its output is written.
__global__ void chunk_scan(const float* in, float* out, int n, const float* carries,
                           bool inclusive) {
  const size_t c = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
  const size_t begin = c * kChunk;
  if (begin >= static_cast<size_t>(n)) return;
  const size_t end = end_of(begin + kChunk, n);
  float acc = carries ? carries[c] : 0.0f;
  for (size_t i = begin; i < end; ++i) {
    const float x = in[i];
    if (!inclusive) out[i] = acc;
    acc += x;
    if (inclusive) out[i] = acc;
  }
}

void scan(const float* in, float* out, int n, bool inclusive) {
  const int chunks = (n + kChunk - 1) / kChunk;
  const int blocks = (chunks + kThreads - 1) / kThreads;
  if (chunks == 1) {
    chunk_scan<<<1, 1>>>(in, out, n, nullptr, inclusive);
    return;
  }
  float* totals = nullptr;
  cudaMallocAsync(&totals, static_cast<size_t>(chunks) * sizeof(float), 0);
  chunk_totals<<<blocks, kThreads>>>(in, n, totals);
  scan(totals, totals, chunks, false);
  chunk_scan<<<blocks, kThreads>>>(in, out, n, totals, inclusive);
  cudaFreeAsync(totals, 0);
}

}  // namespace serial_chunks

void scan_float(const float* in, float* out, int n, ScanKind kind) {
  serial_chunks::scan(in, out, n, kind == ScanKind::inclusive);
}
