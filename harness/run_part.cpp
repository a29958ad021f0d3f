#include "run_part.h"

namespace gpulab {

size_t FloatOutput::count() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

GpuOutputs::GpuOutputs(FloatOutput spec, int n_sets)
    : spec_(std::move(spec)), poison_(spec_.count(), poison_float()) {
  for (int i = 0; i < n_sets; ++i) sets_.emplace_back(spec_.count());
}

void GpuOutputs::poison(int set) { sets_[static_cast<size_t>(set)].upload(poison_.data()); }

CpuOutputs::CpuOutputs(FloatOutput spec, int n_sets) : spec_(std::move(spec)) {
  for (int i = 0; i < n_sets; ++i) sets_.emplace_back(spec_.count());
}

void CpuOutputs::poison(int set) {
  auto& v = sets_[static_cast<size_t>(set)];
  std::fill(v.begin(), v.end(), poison_float());
}

int input_sets(const RunContext& ctx) {
  return ctx.time ? std::max(1, ctx.policy.input_sets) : 1;
}

void run_gpu_part(RunContext& ctx, GpuOutputs& out, const SetFn& call, const char* what) {
  const auto& spec = out.spec();
  out.poison(0);
  GPULAB_CUDA(cudaDeviceSynchronize());
  call(0);
  check_student_call(what);
  ctx.write_output(spec.name, spec.shape, out.download(0).data());
  if (!ctx.time) return;
  const TimingResult t = time_gpu(
      ctx.policy, input_sets(ctx), [&](int set) { out.poison(set); }, call);
  ctx.write_output("timed_" + spec.name, spec.shape, out.download(t.last_set).data());
  ctx.result["timing"] = t.to_json();
}

void run_cpu_part(RunContext& ctx, CpuOutputs& out, const SetFn& call) {
  const auto& spec = out.spec();
  out.poison(0);
  call(0);
  ctx.write_output(spec.name, spec.shape, out.data(0));
  if (!ctx.time) return;
  const TimingResult t = time_cpu(
      ctx.policy, input_sets(ctx), [&](int set) { out.poison(set); }, call);
  ctx.write_output("timed_" + spec.name, spec.shape, out.data(t.last_set));
  ctx.result["timing"] = t.to_json();
}

TimingResult time_cpu_baseline(const RunContext& ctx, const SetFn& call) {
  return time_cpu(ctx.policy, 1, [](int) {}, call);
}

}  // namespace gpulab
