// Appended to the reference: cpu_fast three times slower (the reference's code, run three
// times), and the harness's timing functions (harness/timing.h) defined again, with the same
// names and signatures, reporting an eighth of the time. The harness was an ordinary archive
// linked after the submission, so where a submission defined every function of its timing
// object that object was never linked, and the runner timed itself with these. The grader now
// refuses to build it (nothing of namespace gpulab may be defined), and links the harness whole
// and first, so that a duplicate is a link error besides. Its honest twin,
// interpose-harness-twin, is the same code without the timing functions.
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  for (int round = 0; round < 3; ++round) honest_dcs_cpu_fast(atoms, n_atoms, lat, potential);
}

// harness/timing.h's types, as far as the definitions below need them.
namespace gpulab {

struct TimingPolicy {
  int warmup, min_samples, max_samples;
  double target_rel_se, cap_ms;
  int input_sets, samples;
};

struct TimingResult {
  double median_ms = 0;
  double rel_se = 0;
  bool converged = false;
  std::vector<double> samples_ms;
  std::string clock;
  int last_set = 0;
};

using SetFn = std::function<void(int set)>;

// An eighth of the wall time.
double cpu_sample_ms(const std::function<void()>& run, const char*) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
             .count() /
         8;
}

TimingResult time_cpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  TimingResult r;
  for (int i = 0; i < policy.min_samples; ++i) {
    const int set = i % std::max(1, n_sets);
    prepare(set);
    r.samples_ms.push_back(cpu_sample_ms([&] { run(set); }, "timed call"));
    r.last_set = set;
  }
  std::vector<double> sorted = r.samples_ms;
  std::sort(sorted.begin(), sorted.end());
  r.median_ms = sorted.empty() ? 0 : sorted[sorted.size() / 2];
  r.converged = true;
  r.clock = "wall+other-threads";
  return r;
}

TimingResult time_gpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run) {
  TimingResult r = time_cpu(policy, n_sets, prepare, [&](int set) {
    run(set);
    cudaDeviceSynchronize();
  });
  r.clock = "gpu-events";
  return r;
}

}  // namespace gpulab
