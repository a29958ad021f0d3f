// histogram's lab driver: loads a dataset's values (values.npy, for the sum) or keys and bin
// count (keys.npy and the parameter bins, for the histograms) and calls the student's functions
// through the shared run/check/time mechanism; in a baseline run (gpulab bench: runner_flags.h's
// kTimeBaselineFlag) run_gpu_part calls no student code and the driver times CUB's
// DeviceReduce::Sum or DeviceHistogram::HistogramEven on the same inputs (driver_baseline.cu).
#include <climits>
#include <stdexcept>
#include <string>

#include "driver_baseline.h"
#include "histogram.h"
#include "input_sets.h"
#include "run_part.h"

namespace {

using gpulab::RunContext;

// One input array of int32, shape (n,), 0 <= n < 2^31 (an empty input is a dataset too).
gpulab::NpyArray load_ints(const RunContext& ctx, const char* name) {
  gpulab::NpyArray a = ctx.dataset.input(name, gpulab::DType::i32);
  if (a.shape.size() != 1 || a.count() > INT_MAX)
    throw std::runtime_error((ctx.dataset.dir / (std::string(name) + ".npy")).string() +
                             ": shape " + a.shape_string() + " is not (n,) with 0 <= n < 2^31");
  return a;
}

void reduce(RunContext& ctx) {
  const gpulab::NpyArray values = load_ints(ctx, "values");
  const int n = static_cast<int>(values.count());
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<int> in(ctx, "values", values.as<int>(), values.count());
  gpulab::GpuIntOutputs out({"sum", {1}}, sets);
  gpulab::run_gpu_part(
      ctx, out, [&](int s) { reduce_sum(in.get(s), n, out.get(s)); }, "reduce_sum");
  ctx.result["work"] = static_cast<double>(n);
  if (ctx.time_baseline) {
    const gpulab::TimingResult cub = gpulab::time_gpu_baseline(
        ctx, sets, [&](int s) { baseline_cub_sum(in.get(s), n, out.get(s)); });
    ctx.result["baseline"] = {{"name", "CUB DeviceReduce::Sum"}, {"timing", cub.to_json()}};
  }
}

using HistogramFn = void (*)(const int*, int, int, int*);

void histogram_part(RunContext& ctx, HistogramFn call, const char* what) {
  const gpulab::NpyArray keys = load_ints(ctx, "keys");
  const long long bins = ctx.dataset.int_param("bins");
  if (bins < 1 || bins > (1LL << 24))
    throw std::runtime_error((ctx.dataset.dir / "meta.json").string() + ": bins " +
                             std::to_string(bins) + " is not in [1, 2^24]");
  // A key outside [0, bins) would send a correct histogram's atomicAdd past its array: refuse
  // the dataset rather than let the student's code be blamed for it.
  for (size_t k = 0; k < keys.count(); ++k)
    if (keys.as<int>()[k] < 0 || keys.as<int>()[k] >= bins)
      throw std::runtime_error((ctx.dataset.dir / "keys.npy").string() + ": key " +
                               std::to_string(keys.as<int>()[k]) + " at [" + std::to_string(k) +
                               "] is not in [0, bins = " + std::to_string(bins) + ")");
  const int n = static_cast<int>(keys.count()), b = static_cast<int>(bins);
  const int sets = gpulab::input_sets(ctx);
  gpulab::DeviceInputs<int> in(ctx, "keys", keys.as<int>(), keys.count());
  gpulab::GpuIntOutputs out({"counts", {static_cast<size_t>(b)}}, sets);
  gpulab::run_gpu_part(
      ctx, out, [&](int s) { call(in.get(s), n, b, out.get(s)); }, what);
  ctx.result["work"] = static_cast<double>(n);
  if (ctx.time_baseline) {
    const gpulab::TimingResult cub = gpulab::time_gpu_baseline(
        ctx, sets, [&](int s) { baseline_cub_histogram(in.get(s), n, b, out.get(s)); });
    ctx.result["baseline"] = {{"name", "CUB DeviceHistogram::HistogramEven"},
                              {"timing", cub.to_json()}};
  }
}

void global(RunContext& ctx) {
  histogram_part(ctx, histogram_global, "histogram_global");
}
void privatized(RunContext& ctx) {
  histogram_part(ctx, histogram_private, "histogram_private");
}
void sorted(RunContext& ctx) {
  histogram_part(ctx, histogram_sort, "histogram_sort");
}

}  // namespace

GPULAB_PART("reduce", true, reduce);
GPULAB_PART("histogram-global", true, global);
GPULAB_PART("histogram-private", true, privatized);
GPULAB_PART("histogram-sort", true, sorted);
