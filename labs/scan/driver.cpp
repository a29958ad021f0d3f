// scan's lab driver: loads a dataset's values (int32 or float32, values.npy) and calls the
// student's scan through the shared run/check/time mechanism; in a baseline run (gpulab bench:
// runner_flags.h's kTimeBaselineFlag) it times CUB's scan on the same inputs instead
// (driver_baseline.cu), and run_gpu_part calls no student code.
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "driver_baseline.h"
#include "input_sets.h"
#include "run_part.h"
#include "scan.h"

namespace {

using gpulab::RunContext;

// The student function of a part: (in, out, n) on device pointers.
template <class T>
using ScanFn = void (*)(const T*, T*, int);

template <class T>
void scan_part(RunContext& ctx, const char* output, const char* what, ScanFn<T> call,
               ScanKind cub_kind, bool with_cub) {
  const gpulab::NpyArray values = ctx.dataset.input("values", gpulab::dtype_of<T>());
  if (values.shape.size() != 1 || values.count() < 1 || values.count() > INT_MAX)
    throw std::runtime_error((ctx.dataset.dir / "values.npy").string() + ": shape " +
                             values.shape_string() + " is not (n,) with 1 <= n < 2^31");
  const int n = static_cast<int>(values.count());
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<T> in(ctx, "values", values.as<T>(), values.count());
  gpulab::GpuOutputsOf<T> out({output, {values.count()}}, sets);
  gpulab::run_gpu_part(
      ctx, out, [&](int s) { call(in.get(s), out.get(s), n); }, what);
  ctx.result["work"] = static_cast<double>(n);
  if constexpr (std::is_same_v<T, int>) {
    if (ctx.time_baseline && with_cub) {
      const gpulab::TimingResult cub = gpulab::time_gpu_baseline(
          ctx, sets, [&](int s) { baseline_cub_scan(in.get(s), out.get(s), n, cub_kind); });
      ctx.result["baseline"] = {
          {"name", cub_kind == ScanKind::exclusive ? "CUB DeviceScan::ExclusiveSum"
                                                   : "CUB DeviceScan::InclusiveSum"},
          {"timing", cub.to_json()}};
    }
  }
}

void inclusive(RunContext& ctx) {
  scan_part<int>(
      ctx, "inclusive", "scan_int",
      [](const int* in, int* out, int n) { scan_int(in, out, n, ScanKind::inclusive); },
      ScanKind::inclusive, true);
}

void exclusive(RunContext& ctx) {
  scan_part<int>(
      ctx, "exclusive", "scan_int",
      [](const int* in, int* out, int n) { scan_int(in, out, n, ScanKind::exclusive); },
      ScanKind::exclusive, true);
}

void inclusive_float(RunContext& ctx) {
  scan_part<float>(
      ctx, "inclusive_float", "scan_float",
      [](const float* in, float* out, int n) { scan_float(in, out, n, ScanKind::inclusive); },
      ScanKind::inclusive, false);
}

void exclusive_float(RunContext& ctx) {
  scan_part<float>(
      ctx, "exclusive_float", "scan_float",
      [](const float* in, float* out, int n) { scan_float(in, out, n, ScanKind::exclusive); },
      ScanKind::exclusive, false);
}

void hillis_steele(RunContext& ctx) {
  scan_part<int>(ctx, "inclusive", "scan_int_hillis_steele", scan_int_hillis_steele,
                 ScanKind::inclusive, false);
}

}  // namespace

GPULAB_PART("inclusive", true, inclusive);
GPULAB_PART("exclusive", true, exclusive);
GPULAB_PART("inclusive-float", true, inclusive_float);
GPULAB_PART("exclusive-float", true, exclusive_float);
GPULAB_PART("hillis-steele", true, hillis_steele);
