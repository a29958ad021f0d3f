#include "run_part.h"

#include <stdexcept>

namespace gpulab {

size_t FloatOutput::count() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

void check_guards(const float* buffer, size_t count, const char* what) {
  size_t before = 0, after = 0;
  for (size_t i = 0; i < kGuardFloats; ++i) {
    before += !is_poison(buffer[i]);
    after += !is_poison(buffer[kGuardFloats + count + i]);
  }
  if (before + after == 0) return;
  throw std::runtime_error(
      std::string("your ") + what + " wrote outside the output array: " + std::to_string(before) +
      " values just before its start and " + std::to_string(after) +
      " just past its end were overwritten. Threads whose index falls outside the array must "
      "not write: is a bounds check missing?");
}

GpuOutputs::GpuOutputs(FloatOutput spec, int n_sets)
    : spec_(std::move(spec)), poison_(spec_.count() + 2 * kGuardFloats, poison_float()) {
  for (int i = 0; i < n_sets; ++i) sets_.emplace_back(poison_.size());
}

void GpuOutputs::poison(int set) {
  sets_[static_cast<size_t>(set)].upload(poison_.data());
}

std::vector<float> GpuOutputs::download(int set, const char* what) const {
  std::vector<float> all = sets_[static_cast<size_t>(set)].download();
  check_guards(all.data(), spec_.count(), what);
  return std::vector<float>(all.begin() + kGuardFloats, all.end() - kGuardFloats);
}

CpuOutputs::CpuOutputs(FloatOutput spec, int n_sets) : spec_(std::move(spec)) {
  for (int i = 0; i < n_sets; ++i) sets_.emplace_back(spec_.count() + 2 * kGuardFloats);
}

void CpuOutputs::poison(int set) {
  auto& v = sets_[static_cast<size_t>(set)];
  std::fill(v.begin(), v.end(), poison_float());
}

const float* CpuOutputs::checked(int set, const char* what) const {
  const float* all = sets_[static_cast<size_t>(set)].data();
  check_guards(all, spec_.count(), what);
  return all + kGuardFloats;
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
  ctx.write_output(spec.name, spec.shape, out.download(0, what).data());
  if (!ctx.time) return;
  const TimingResult t = time_gpu(
      ctx.policy, input_sets(ctx), [&](int set) { out.poison(set); }, call);
  ctx.write_output("timed_" + spec.name, spec.shape, out.download(t.last_set, what).data());
  ctx.result["timing"] = t.to_json();
}

void run_cpu_part(RunContext& ctx, CpuOutputs& out, const SetFn& call, const char* what) {
  const auto& spec = out.spec();
  out.poison(0);
  call(0);
  ctx.write_output(spec.name, spec.shape, out.checked(0, what));
  if (!ctx.time) return;
  const TimingResult t = time_cpu(
      ctx.policy, input_sets(ctx), [&](int set) { out.poison(set); }, call);
  ctx.write_output("timed_" + spec.name, spec.shape, out.checked(t.last_set, what));
  ctx.result["timing"] = t.to_json();
}

TimingResult time_cpu_baseline(const RunContext& ctx, const SetFn& call) {
  return time_cpu(
      ctx.policy, 1, [](int) {}, call);
}

TimingResult time_gpu_baseline(const RunContext& ctx, int n_sets, const SetFn& call) {
  return time_gpu(
      ctx.policy, n_sets, [](int) {}, call);
}

}  // namespace gpulab
