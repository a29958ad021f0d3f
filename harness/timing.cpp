#include "timing.h"

#include <cuda_runtime.h>
#include <time.h>

#include <algorithm>
#include <chrono>

#include "cuda_check.h"
#include "stats.h"
#include "student_call.h"

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

namespace {

double cpu_clock_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

}  // namespace

SampleTime GpuClock::sample(const std::function<void()>& run, const char* what) {
  const auto start = static_cast<cudaEvent_t>(start_);
  const auto stop = static_cast<cudaEvent_t>(stop_);
  GPULAB_CUDA(cudaDeviceSynchronize());
  // Overwrite the whole L2 with other data, and drop lines marked persisting, so every sample
  // starts from DRAM as a single run in a real program would.
  GPULAB_CUDA(cudaMemsetAsync(flush_, ++flips_ & 0xff, flush_bytes_, 0));
  GPULAB_CUDA(cudaCtxResetPersistingL2Cache());
  GPULAB_CUDA(cudaDeviceSynchronize());
  const double p0 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  GPULAB_CUDA(cudaEventRecord(start, 0));
  {
    StudentCall student(what);  // its signal handlers back only once the clock runs
    run();
    // Its threads ended and its handlers put aside before the sync: nothing of the student's
    // can start work after it.
    student.returned();
  }
  // Work on other streams (non-blocking ones do not wait for the legacy stream) and from other
  // host threads is done only after a device-wide sync: the stop event comes after it.
  check_student_call(what);
  GPULAB_CUDA(cudaEventRecord(stop, 0));
  GPULAB_CUDA(cudaEventSynchronize(stop));
  const double p1 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  float ms = 0;
  GPULAB_CUDA(cudaEventElapsedTime(&ms, start, stop));
  return {static_cast<double>(ms), p1 - p0};
}

TimingResult time_gpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  GpuClock clock;
  TimingResult r = sample_loop(policy, n_sets, prepare, [&](int set) {
    return clock.sample([&] { run(set); }, "timed call").ms;
  });
  r.clock = kGpuClock;
  return r;
}

SampleTime cpu_sample(const std::function<void()>& run, const char* what) {
  const double p0 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  const double t0 = cpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
  const auto w0 = std::chrono::steady_clock::now();
  {
    StudentCall student(what);
    run();
    student.returned();
  }
  const double wall =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
  const double t1 = cpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
  const double p1 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
  return {wall + std::max(0.0, (p1 - p0) - (t1 - t0)), p1 - p0};
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
    return cpu_sample([&] { run(set); }, "timed call").ms;
  });
  r.clock = kCpuClock;
  return r;
}

}  // namespace gpulab
