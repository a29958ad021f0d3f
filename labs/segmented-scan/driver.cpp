// segmented-scan's lab driver: loads a dataset (values and head flags for the scans, a CSR
// matrix and a vector for SpMV) and calls the student's functions through the shared
// run/check/time mechanism. In a baseline run (gpulab bench: runner_flags.h's
// kTimeBaselineFlag) run_gpu_part calls no student code, and the scans time CUB's scan by key
// (driver_baseline.cu) on the same inputs instead.
//
// The work of a part, in lab.json's unit (flop): a scan does one addition per element, so n;
// SpMV does a multiply and an add per nonzero, so 2 nnz.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_baseline.h"
#include "input_sets.h"
#include "run_part.h"
#include "segmented_scan.h"

namespace {

using gpulab::DType;
using gpulab::NpyArray;
using gpulab::RunContext;

[[noreturn]] void bad_input(const gpulab::Dataset& ds, const std::string& what) {
  throw std::runtime_error(ds.dir.string() + ": " + what);
}

// A one-dimensional input of `dtype` with `count` elements (count < 0: any, at most 2^31 - 1).
NpyArray vector_input(const gpulab::Dataset& ds, const std::string& name, DType dtype,
                      long long count = -1) {
  NpyArray a = ds.input(name, dtype);
  if (a.shape.size() != 1 || (count >= 0 && a.shape[0] != static_cast<size_t>(count)) ||
      a.shape[0] > 0x7fffffffull)
    bad_input(ds, name + ".npy has shape " + a.shape_string() +
                      (count >= 0 ? ", not (" + std::to_string(count) + ",)"
                                  : ", not one dimension under 2^31 elements"));
  return a;
}

void scan(RunContext& ctx, bool inclusive) {
  const NpyArray values = vector_input(ctx.dataset, "values", DType::f32);
  const int n = static_cast<int>(values.count());
  const NpyArray flags = vector_input(ctx.dataset, "flags", DType::u8, n);
  if (n < 1) bad_input(ctx.dataset, "a scan needs at least one element");
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<float> in(ctx, "values", values.as<float>(), values.count());
  gpulab::DeviceInputs<uint8_t> head(ctx, "flags", flags.as<uint8_t>(), flags.count());
  const char* what = inclusive ? "segmented_scan_inclusive" : "segmented_scan_exclusive";
  gpulab::GpuOutputs out({inclusive ? "inclusive" : "exclusive", {static_cast<size_t>(n)}}, sets);
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) {
        (inclusive ? segmented_scan_inclusive : segmented_scan_exclusive)(in.get(s), head.get(s),
                                                                          out.get(s), n);
      },
      what);
  ctx.result["work"] = static_cast<double>(n);
  if (ctx.time_baseline) {
    const std::vector<uint8_t> host_flags(flags.as<uint8_t>(), flags.as<uint8_t>() + n);
    const CubScanByKey cub(host_flags, sets, inclusive);
    const gpulab::TimingResult t =
        gpulab::time_gpu_baseline(ctx, sets, [&](int s) { cub.run(s, in.get(s), out.get(s)); });
    ctx.result["baseline"] = {{"name", cub.name()}, {"timing", t.to_json()}};
  }
}

void inclusive(RunContext& ctx) {
  scan(ctx, true);
}
void exclusive(RunContext& ctx) {
  scan(ctx, false);
}

void spmv(RunContext& ctx) {
  const gpulab::Dataset& ds = ctx.dataset;
  const NpyArray row_ptr = vector_input(ds, "row_ptr", DType::i32);
  if (row_ptr.count() < 2) bad_input(ds, "row_ptr.npy needs n_rows + 1 >= 2 entries");
  const int n_rows = static_cast<int>(row_ptr.count() - 1);
  const int* rp = row_ptr.as<int>();
  const int nnz = rp[n_rows];
  const NpyArray col_idx = vector_input(ds, "col_idx", DType::i32, nnz);
  const NpyArray values = vector_input(ds, "values", DType::f32, nnz);
  const NpyArray x = vector_input(ds, "x", DType::f32);
  const int n_cols = static_cast<int>(x.count());
  // The header promises a well-formed matrix: check it rather than trust the dataset.
  if (rp[0] != 0 || n_cols < 1) bad_input(ds, "row_ptr[0] must be 0 and x must not be empty");
  for (int r = 0; r < n_rows; ++r)
    if (rp[r + 1] < rp[r]) bad_input(ds, "row_ptr decreases at row " + std::to_string(r));
  for (int k = 0; k < nnz; ++k)
    if (col_idx.as<int>()[k] < 0 || col_idx.as<int>()[k] >= n_cols)
      bad_input(ds, "col_idx[" + std::to_string(k) + "] is outside [0, n_cols)");

  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<int> d_row_ptr(ctx, "row_ptr", row_ptr.as<int>(), row_ptr.count());
  gpulab::DeviceInputs<int> d_col_idx(ctx, "col_idx", col_idx.as<int>(), col_idx.count());
  gpulab::DeviceInputs<float> d_values(ctx, "values", values.as<float>(), values.count());
  gpulab::DeviceInputs<float> d_x(ctx, "x", x.as<float>(), x.count());
  gpulab::GpuOutputs out({"y", {static_cast<size_t>(n_rows)}}, sets);
  gpulab::run_gpu_part(
      ctx, out,
      [&](int s) {
        const CsrMatrix a = {n_rows,           n_cols,           nnz,
                             d_row_ptr.get(s), d_col_idx.get(s), d_values.get(s)};
        spmv_csr(a, d_x.get(s), out.get(s));
      },
      "spmv_csr");
  ctx.result["work"] = 2.0 * nnz;
}

}  // namespace

GPULAB_PART("inclusive", true, inclusive);
GPULAB_PART("exclusive", true, exclusive);
GPULAB_PART("spmv", true, spmv);
