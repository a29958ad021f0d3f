// An honest submission that runs on the host: every scan is one serial float loop per segment,
// every row of SpMV one serial float loop. It is the least accurate honest way to sum (the
// rounding error of a serial sum grows like the square root of its length, a tree's like its
// depth), so lab.json's K is calibrated on it too (docs/PERF.md, "segmented-scan: tolerance
// calibration").
#include <cuda_runtime.h>

#include <vector>

#include "segmented_scan.h"

namespace {

void scan(const float* in, const uint8_t* flags, float* out, int n, bool inclusive) {
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
  std::vector<uint8_t> f(static_cast<size_t>(n));
  cudaMemcpy(x.data(), in, x.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(f.data(), flags, f.size(), cudaMemcpyDeviceToHost);
  float s = 0;
  for (size_t k = 0; k < x.size(); ++k) {
    if (k == 0 || f[k]) s = 0;
    if (inclusive) {
      s += x[k];
      y[k] = s;
    } else {
      y[k] = s;
      s += x[k];
    }
  }
  cudaMemcpy(out, y.data(), y.size() * sizeof(float), cudaMemcpyHostToDevice);
}

template <class T>
std::vector<T> download(const T* p, size_t count) {
  std::vector<T> h(count);
  if (count) cudaMemcpy(h.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

}  // namespace

void segmented_scan_inclusive(const float* in, const uint8_t* flags, float* out, int n) {
  scan(in, flags, out, n, true);
}

void segmented_scan_exclusive(const float* in, const uint8_t* flags, float* out, int n) {
  scan(in, flags, out, n, false);
}

void spmv_csr(CsrMatrix a, const float* x, float* y) {
  const auto row_ptr = download(a.row_ptr, static_cast<size_t>(a.n_rows) + 1);
  const auto col_idx = download(a.col_idx, static_cast<size_t>(a.nnz));
  const auto values = download(a.values, static_cast<size_t>(a.nnz));
  const auto xs = download(x, static_cast<size_t>(a.n_cols));
  std::vector<float> ys(static_cast<size_t>(a.n_rows));
  for (int r = 0; r < a.n_rows; ++r) {
    float s = 0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += values[k] * xs[col_idx[k]];
    ys[r] = s;
  }
  cudaMemcpy(y, ys.data(), ys.size() * sizeof(float), cudaMemcpyHostToDevice);
}
