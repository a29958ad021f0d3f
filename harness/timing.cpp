#include "timing.h"

#include <cuda_runtime.h>
#include <time.h>

#include <algorithm>
#include <chrono>

#include "cuda_check.h"
#include "stats.h"

namespace gpulab {

TimingPolicy TimingPolicy::from_json(const nlohmann::json& j) {
  TimingPolicy p;
  p.warmup = j.value("warmup", p.warmup);
  p.min_samples = j.value("min_samples", p.min_samples);
  p.max_samples = j.value("max_samples", p.max_samples);
  p.target_rel_se = j.value("target_rel_se", p.target_rel_se);
  p.cap_ms = j.value("cap_ms", p.cap_ms);
  p.input_sets = j.value("input_sets", p.input_sets);
  return p;
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

TimingResult time_gpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  int dev = 0;
  GPULAB_CUDA(cudaGetDevice(&dev));
  int l2 = 0;
  GPULAB_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  void* flush = nullptr;
  const size_t flush_bytes = 2 * static_cast<size_t>(l2 > 0 ? l2 : (64 << 20));
  GPULAB_CUDA(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t start, stop;
  GPULAB_CUDA(cudaEventCreate(&start));
  GPULAB_CUDA(cudaEventCreate(&stop));
  int flips = 0;
  auto one = [&](int set) {
    GPULAB_CUDA(cudaDeviceSynchronize());
    // Overwrite the whole L2 with other data, and drop lines marked persisting, so every sample
    // starts from DRAM as a single run in a real program would.
    GPULAB_CUDA(cudaMemsetAsync(flush, ++flips & 0xff, flush_bytes, 0));
    GPULAB_CUDA(cudaCtxResetPersistingL2Cache());
    GPULAB_CUDA(cudaDeviceSynchronize());
    GPULAB_CUDA(cudaEventRecord(start, 0));
    run(set);
    GPULAB_CUDA(cudaEventRecord(stop, 0));
    check_student_call("timed run");
    float ms = 0;
    GPULAB_CUDA(cudaEventElapsedTime(&ms, start, stop));
    return static_cast<double>(ms);
  };
  TimingResult r;
  try {
    r = sample_loop(policy, n_sets, prepare, one);
    r.clock = "gpu-events";
  } catch (...) {
    cudaFree(flush);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(flush);
  return r;
}

namespace {

double cpu_clock_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

}  // namespace

TimingResult time_cpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  TimingResult r = sample_loop(policy, n_sets, prepare, [&](int set) {
    const double p0 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    const double t0 = cpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
    const auto w0 = std::chrono::steady_clock::now();
    run(set);
    const double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
    const double t1 = cpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
    const double p1 = cpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    return wall + std::max(0.0, (p1 - p0) - (t1 - t0));
  });
  r.clock = "wall+other-threads";
  return r;
}

}  // namespace gpulab
