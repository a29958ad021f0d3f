#include "timing.h"

#include <cuda_runtime.h>
#include <time.h>

#include <algorithm>
#include <chrono>

#include "cuda_check.h"
#include "stats.h"
#include "thread_watch.h"

namespace gpulab {

TimingPolicy TimingPolicy::from_json(const nlohmann::json& j) {
  return j.get<TimingPolicy>();
}

nlohmann::json TimingResult::to_json() const {
  return {{"median_ms", median_ms},       {"rel_se", rel_se},         {"converged", converged},
          {"samples", samples_ms.size()}, {"samples_ms", samples_ms}, {"clock", clock}};
}

namespace {

// Runs the shared sample loop; `one` times a single run of a set and returns milliseconds.
TimingResult sample_loop(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                         const std::function<double(int)>& one) {
  TimingResult r;
  const int sets = n_sets > 0 ? n_sets : 1;
  for (int i = 0; i < policy.warmup; ++i) {
    prepare(i % sets);
    one(i % sets);
  }
  double spent = 0;
  for (int i = 0; i < policy.max_samples; ++i) {
    const int set = i % sets;
    prepare(set);
    const double ms = one(set);
    r.samples_ms.push_back(ms);
    r.last_set = set;
    spent += ms;
    if (static_cast<int>(r.samples_ms.size()) >= policy.min_samples) {
      const double m = median(r.samples_ms);
      r.rel_se = m > 0 ? median_standard_error(r.samples_ms) / m : 0;
      if (r.rel_se < policy.target_rel_se) {
        r.converged = true;
        break;
      }
      if (spent > policy.cap_ms) break;
    }
  }
  r.median_ms = median(r.samples_ms);
  if (!r.converged && r.samples_ms.size() > 1 && r.median_ms > 0)
    r.rel_se = median_standard_error(r.samples_ms) / r.median_ms;
  return r;
}

}  // namespace

GpuClock::GpuClock() {
  int dev = 0;
  GPULAB_CUDA(cudaGetDevice(&dev));
  int l2 = 0;
  GPULAB_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  flush_bytes_ = 2 * static_cast<size_t>(l2 > 0 ? l2 : (64 << 20));
  GPULAB_CUDA(cudaMalloc(&flush_, flush_bytes_));
  cudaEvent_t start, stop;
  GPULAB_CUDA(cudaEventCreate(&start));
  GPULAB_CUDA(cudaEventCreate(&stop));
  start_ = start;
  stop_ = stop;
}

GpuClock::~GpuClock() {
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
  cudaFree(flush_);
}

double GpuClock::sample_ms(const std::function<void()>& run, const char* what) {
  const auto start = static_cast<cudaEvent_t>(start_);
  const auto stop = static_cast<cudaEvent_t>(stop_);
  GPULAB_CUDA(cudaDeviceSynchronize());
  // Overwrite the whole L2 with other data, and drop lines marked persisting, so every sample
  // starts from DRAM as a single run in a real program would.
  GPULAB_CUDA(cudaMemsetAsync(flush_, ++flips_ & 0xff, flush_bytes_, 0));
  GPULAB_CUDA(cudaCtxResetPersistingL2Cache());
  GPULAB_CUDA(cudaDeviceSynchronize());
  const ThreadWatch threads;
  GPULAB_CUDA(cudaEventRecord(start, 0));
  run();
  threads.check_none_left(what);
  // Work on other streams (non-blocking ones do not wait for the legacy stream) and from other
  // host threads is done only after a device-wide sync: the stop event comes after it.
  check_student_call(what);
  GPULAB_CUDA(cudaEventRecord(stop, 0));
  GPULAB_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  GPULAB_CUDA(cudaEventElapsedTime(&ms, start, stop));
  return static_cast<double>(ms);
}

TimingResult time_gpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  GpuClock clock;
  TimingResult r = sample_loop(policy, n_sets, prepare, [&](int set) {
    return clock.sample_ms([&] { run(set); }, "timed call");
  });
  r.clock = kGpuClock;
  return r;
}

namespace {

double cpu_clock_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

}  // namespace

double cpu_sample_ms(const std::function<void()>& run, const char* what) {
  const ThreadWatch threads;
  const double p0 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  const double t0 = cpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
  const auto w0 = std::chrono::steady_clock::now();
  run();
  threads.check_none_left(what);
  const double wall =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
  const double t1 = cpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
  const double p1 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  return wall + std::max(0.0, (p1 - p0) - (t1 - t0));
}

TimingResult summarize_samples(const std::vector<double>& samples_ms, const std::string& clock) {
  TimingResult r;
  r.samples_ms = samples_ms;
  r.clock = clock;
  r.median_ms = median(samples_ms);
  r.rel_se = samples_ms.size() > 1 && r.median_ms > 0
                 ? median_standard_error(samples_ms) / r.median_ms
                 : 0;
  r.converged = true;  // the policy's count, taken in full
  return r;
}

TimingResult time_cpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  TimingResult r = sample_loop(policy, n_sets, prepare, [&](int set) {
    return cpu_sample_ms([&] { run(set); }, "timed call");
  });
  r.clock = kCpuClock;
  return r;
}

}  // namespace gpulab
