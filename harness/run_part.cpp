#include "run_part.h"

#include <algorithm>
#include <stdexcept>

#include "backend_hooks.h"
#include "runner_flags.h"
#include "sample_protocol.h"
#include "student_call.h"

namespace gpulab {

size_t OutputArray::count() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

void check_guards(const void* buffer, size_t count, const char* what) {
  const auto* words = static_cast<const uint32_t*>(buffer);
  check_guards(words, words + kGuardWords + count, what);
}

void check_guards(const uint32_t* before_zone, const uint32_t* after_zone, const char* what) {
  size_t before = 0, after = 0;
  for (size_t i = 0; i < kGuardWords; ++i) {
    before += before_zone[i] != kPoisonBits;
    after += after_zone[i] != kPoisonBits;
  }
  if (before + after == 0) return;
  throw std::runtime_error(
      std::string("your ") + what + " wrote outside the output array: " + std::to_string(before) +
      " values just before its start and " + std::to_string(after) +
      " just past its end were overwritten. Threads whose index falls outside the array must "
      "not write: is a bounds check missing?");
}

template <class T>
GpuOutputsOf<T>::GpuOutputsOf(OutputArray spec, int n_sets)
    : spec_(std::move(spec)), poison_(spec_.count() + 2 * kGuardWords) {
  // Poisoning is a device-to-device copy from one poisoned buffer: a timed sample of a large
  // output then waits for the GPU's copy bandwidth, not for the PCIe bus. The buffer itself is
  // one guard zone's worth uploaded, then doubled by device copies: a gigabyte output costs no
  // gigabyte of host memory and no gigabyte over the bus (a graded timed run makes one per
  // sample).
  const size_t n = poison_.size(), first = std::min(n, kGuardWords);
  poison_.upload(std::vector<T>(first, poison_value<T>()).data(), first);
  for (size_t done = first; done < n; done *= 2)
    GPULAB_CUDA(cudaMemcpy(poison_.get() + done, poison_.get(),
                           std::min(done, n - done) * sizeof(T), cudaMemcpyDeviceToDevice));
  for (int i = 0; i < n_sets; ++i) sets_.emplace_back(poison_.size());
  // The CPU backend's view of them (backend_hooks.h): the poisoned image's shadow, guards outside
  // and the array unwritten, is what each poisoning copies into a set.
  if (const auto mark = backend_hooks().mark_output) {
    const size_t before = kGuardWords * sizeof(T), bytes = spec_.count() * sizeof(T);
    mark(poison_.get(), before, bytes, spec_.name.c_str());
    for (auto& set : sets_) mark(set.get(), before, bytes, spec_.name.c_str());
  }
}

template <class T>
void GpuOutputsOf<T>::poison(int set) {
  auto& dst = sets_[static_cast<size_t>(set)];
  GPULAB_CUDA(
      cudaMemcpy(dst.get(), poison_.get(), dst.size() * sizeof(T), cudaMemcpyDeviceToDevice));
}

template <class T>
void GpuOutputsOf<T>::send(RunContext& ctx, const std::string& file, int set,
                           const char* what) const {
  if (!ctx.write_outputs) return;  // not even downloaded
  const T* all = sets_[static_cast<size_t>(set)].get();
  const size_t n = spec_.count();
  std::vector<uint32_t> before(kGuardWords), after(kGuardWords);
  GPULAB_CUDA(cudaMemcpy(before.data(), all, kGuardWords * 4, cudaMemcpyDeviceToHost));
  GPULAB_CUDA(
      cudaMemcpy(after.data(), all + kGuardWords + n, kGuardWords * 4, cudaMemcpyDeviceToHost));
  check_guards(before.data(), after.data(), what);
  // Straight from the device into the memory file the grader receives: no copy in between.
  ctx.send_output(file, dtype_of<T>(), spec_.shape, [&](void* data) {
    if (n) GPULAB_CUDA(cudaMemcpy(data, all + kGuardWords, n * sizeof(T), cudaMemcpyDeviceToHost));
  });
}

template <class T>
void GpuOutputsOf<T>::send_as_left(RunContext& ctx, const std::string& file, int set) const {
  const auto read = backend_hooks().read_device;
  if (!ctx.write_outputs || !read) return;
  const T* values = sets_[static_cast<size_t>(set)].get() + kGuardWords;
  const size_t n = spec_.count();
  ctx.send_output(file, dtype_of<T>(), spec_.shape, [&](void* data) {
    if (n && !read(data, values, n * sizeof(T)))
      throw std::runtime_error("the output " + spec_.name + " cannot be read back");
  });
}

template class GpuOutputsOf<float>;
template class GpuOutputsOf<int32_t>;

CpuOutputs::CpuOutputs(OutputArray spec, int n_sets) : spec_(std::move(spec)) {
  for (int i = 0; i < n_sets; ++i) sets_.emplace_back(spec_.count() + 2 * kGuardWords);
}

void CpuOutputs::poison(int set) {
  auto& v = sets_[static_cast<size_t>(set)];
  std::fill(v.begin(), v.end(), poison_float());
}

const float* CpuOutputs::checked(int set, const char* what) const {
  const float* all = sets_[static_cast<size_t>(set)].data();
  check_guards(all, spec_.count(), what);
  return all + kGuardWords;
}

namespace {

// The names of a first call's outputs: as they are, or a batch's dataset k's
// (sample_protocol.h, kBatchFlag) as sample<k>_<output>.
std::string first_call_prefix(const RunContext& ctx) {
  return ctx.sample > 0 ? sample_output_prefix(ctx.sample) : "";
}

// A batch's dataset has been called and its outputs handed over: the grader is told (its
// "done", untimed), and nothing else runs on it (no second call, no warmup, no timing).
void batch_dataset_done(RunContext& ctx) {
  if (ctx.sample > 0) ctx.sample_done(SampleTime{});
}

}  // namespace

int input_sets(const RunContext& ctx) {
  return ctx.time ? std::max(1, ctx.policy.input_sets) : 1;
}

template <class T>
void run_gpu_part(RunContext& ctx, const std::vector<GpuOutputsOf<T>*>& outs, const SetFn& call,
                  const char* what) {
  auto poison = [&](int set) {
    for (GpuOutputsOf<T>* out : outs) out->poison(set);
  };
  auto send = [&](const std::string& prefix, int set) {
    for (const GpuOutputsOf<T>* out : outs) out->send(ctx, prefix + out->spec().name, set, what);
  };
  // One untimed call on set 0, its kernels finished, its threads ended.
  auto call_once = [&] {
    StudentCall student(what);
    call(0);
    student.returned();
    check_student_call(what);
  };
  if (ctx.time_baseline) return;  // the baseline's own run: no student code is called
  poison(0);
  GPULAB_CUDA(cudaDeviceSynchronize());
  if (ctx.sample > 0 && !ctx.batch) {  // one timed call on this sample's own inputs
    if (!ctx.gpu_clock) ctx.gpu_clock = std::make_shared<GpuClock>();
    const SampleTime t = ctx.gpu_clock->sample([&] { call(0); }, what);
    send(sample_output_prefix(ctx.sample), 0);
    ctx.sample_done(t);
    ctx.check_inputs(0, what);
    return;
  }
  const std::string prefix = first_call_prefix(ctx);
  try {
    call_once();
  } catch (...) {
    // The failure is the run's message; the outputs as left are only beside it (run_part.h),
    // and one that cannot be handed over is left out.
    for (const GpuOutputsOf<T>* out : outs) {
      try {
        out->send_as_left(ctx, prefix + out->spec().name, 0);
      } catch (...) {
      }
    }
    throw;
  }
  send(prefix, 0);
  if (ctx.write_outputs) ctx.check_inputs(0, what);
  if (ctx.batch) return batch_dataset_done(ctx);
  if (ctx.call_twice) {  // every call counts: a second call, on a fresh copy of the inputs
    ctx.refresh_inputs(0);
    poison(0);
    GPULAB_CUDA(cudaDeviceSynchronize());
    call_once();
    send(kRepeatPrefix, 0);
    ctx.check_inputs(0, what);
  }
  for (int i = 0; i < ctx.warmup_calls; ++i) {
    poison(0);
    call_once();
  }
  if (!ctx.time) return;
  const TimingResult t = time_gpu(
      ctx.policy, input_sets(ctx),
      [&](int set) {
        ctx.refresh_inputs(set);
        poison(set);
      },
      call);
  send("timed_", t.last_set);
  ctx.result["timing"] = t.to_json();
}

template <class T>
void run_gpu_part(RunContext& ctx, GpuOutputsOf<T>& out, const SetFn& call, const char* what) {
  run_gpu_part<T>(ctx, std::vector<GpuOutputsOf<T>*>{&out}, call, what);
}

template void run_gpu_part(RunContext&, GpuOutputsOf<float>&, const SetFn&, const char*);
template void run_gpu_part(RunContext&, GpuOutputsOf<int32_t>&, const SetFn&, const char*);
template void run_gpu_part(RunContext&, const std::vector<GpuOutputsOf<float>*>&, const SetFn&,
                           const char*);
template void run_gpu_part(RunContext&, const std::vector<GpuOutputsOf<int32_t>*>&, const SetFn&,
                           const char*);

void run_cpu_part(RunContext& ctx, CpuOutputs& out, const SetFn& call, const char* what) {
  const auto& spec = out.spec();
  auto call_once = [&] {
    StudentCall student(what);
    call(0);
    student.returned();
  };
  if (ctx.time_baseline) return;  // the baseline's own run: no student code is called
  out.poison(0);
  if (ctx.sample > 0 && !ctx.batch) {  // one timed call on this sample's own inputs
    const SampleTime t = cpu_sample([&] { call(0); }, what);
    ctx.write_output(sample_output_prefix(ctx.sample) + spec.name, spec.shape,
                     out.checked(0, what));
    ctx.sample_done(t);
    ctx.check_inputs(0, what);
    return;
  }
  call_once();
  ctx.write_output(first_call_prefix(ctx) + spec.name, spec.shape, out.checked(0, what));
  if (ctx.write_outputs) ctx.check_inputs(0, what);
  if (ctx.batch) return batch_dataset_done(ctx);
  if (ctx.call_twice) {  // every call counts: a second call, on a fresh copy of the inputs
    ctx.refresh_inputs(0);
    out.poison(0);
    call_once();
    ctx.write_output(kRepeatPrefix + spec.name, spec.shape, out.checked(0, what));
    ctx.check_inputs(0, what);
  }
  for (int i = 0; i < ctx.warmup_calls; ++i) {
    out.poison(0);
    call_once();
  }
  if (!ctx.time) return;
  const TimingResult t = time_cpu(
      ctx.policy, input_sets(ctx),
      [&](int set) {
        ctx.refresh_inputs(set);
        out.poison(set);
      },
      call);
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
