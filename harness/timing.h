// The timing protocol, for GPU code (CUDA events) and CPU code (wall clock); docs/GRADING.md
// ("What a timed run cannot fake") and docs/PERF.md say how grading uses it.
//
// Each sample: prepare(set) (untimed: poison outputs), then for the GPU a device-wide sync, an
// L2 flush (a write of twice the L2 size) and a reset of persisting L2 lines, then run(set)
// between two events: the stop event is recorded after a device-wide sync, so the sample
// covers every kernel and copy the call started, on any stream and from any host thread. The
// call goes through student_call.h's boundary: one that returns while a thread it started is
// still running fails the sample (that thread's work would escape the clock), and the student's
// signal handlers are put aside before the sync, so none can start work after it. Samples rotate
// among input sets (copies of the inputs at different addresses) and continue until the standard
// error of the median is under target_rel_se of it, or max_samples, or cap_ms of accumulated time.
//
// A CPU sample is the wall time plus the CPU time that threads other than the calling one used
// meanwhile: sequential code is timed as it runs, while work moved to extra threads is counted
// in full, so threads earn nothing. (The grader hides the GPU from CPU-part runs, so the work
// cannot move there either.) Not CPU time alone: some virtual machines count it in whole
// scheduler ticks, 4 ms steps on a 90 ms sample on the H100 host; the other threads' share is
// exactly zero for sequential code, whose process and thread clocks advance together.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

struct TimingPolicy {
  int warmup = 2;
  int min_samples = 10;
  int max_samples = 200;
  double target_rel_se = 0.005;
  double cap_ms = 3000;
  int input_sets = 4;
  // A graded timed run (sample_protocol.h) takes this many samples, each on inputs of its own,
  // after `warmup` untimed calls; the loop above (min_samples to max_samples, input_sets) is
  // `gpulab bench`'s. Each sample is a dataset of its own that the grader generates, with its
  // oracle, so samples cost grading time: a GPU run's samples agree to well under 1%
  // (docs/PERF.md), and the median of 3 already drops one that a hiccup slowed.
  int samples = 3;

  static TimingPolicy from_json(const nlohmann::json& j);  // missing keys keep their defaults
};

// The policy's JSON form: the keys lab.json's "timing" gives it and `--timing` hands the runner
// (the grader reads the key names and types from here: grader/lab/lab_timing.h), each field by its
// name; a key that is missing keeps the field's default. Written out rather than with
// nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT, which is json 3.11's: Ubuntu 22.04
// (Gradescope's image) has 3.10.
#define GPULAB_TIMING_POLICY_FIELDS(X) \
  X(warmup) X(min_samples) X(max_samples) X(target_rel_se) X(cap_ms) X(input_sets) X(samples)

inline void to_json(nlohmann::json& j, const TimingPolicy& p) {
  j = nlohmann::json::object();
#define GPULAB_FIELD_TO_JSON(field) j[#field] = p.field;
  GPULAB_TIMING_POLICY_FIELDS(GPULAB_FIELD_TO_JSON)
#undef GPULAB_FIELD_TO_JSON
}

inline void from_json(const nlohmann::json& j, TimingPolicy& p) {
  const TimingPolicy defaults;
#define GPULAB_FIELD_FROM_JSON(field) p.field = j.value(#field, defaults.field);
  GPULAB_TIMING_POLICY_FIELDS(GPULAB_FIELD_FROM_JSON)
#undef GPULAB_FIELD_FROM_JSON
}

struct TimingResult {
  double median_ms = 0;
  double rel_se = 0;  // standard error of the median over the median
  bool converged = false;
  std::vector<double> samples_ms;
  std::string clock;  // kGpuClock or kCpuClock
  int last_set = 0;   // the input set of the last sample, whose outputs are checked

  nlohmann::json to_json() const;
};

// The names a timing record gives its clock (TimingResult::clock).
constexpr const char* kGpuClock = "gpu-events";
constexpr const char* kCpuClock = "wall+other-threads";  // see above

using SetFn = std::function<void(int set)>;

// One timed call: its time by the clock of its kind (GPU events, or wall plus other threads), and
// the CPU time of the whole process during it, which the grader compares with its own clock
// outside the process (channel_protocol.h's "done").
struct SampleTime {
  double ms = 0;
  double cpu_ms = 0;
};

// One sample at a time, for a run that times each sample on inputs of its own (the graded
// protocol, sample_protocol.h). `what` names the student's function in messages.
class GpuClock {
 public:
  GpuClock();
  ~GpuClock();
  GpuClock(const GpuClock&) = delete;
  GpuClock& operator=(const GpuClock&) = delete;
  SampleTime sample(const std::function<void()>& run, const char* what);

 private:
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
  int flips_ = 0;
  void* start_ = nullptr;  // cudaEvent_t
  void* stop_ = nullptr;
};

SampleTime cpu_sample(const std::function<void()>& run, const char* what);

// The record of a run's samples taken one at a time: their median and its standard error.
TimingResult summarize_samples(const std::vector<double>& samples_ms, const std::string& clock);

TimingResult time_gpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run);

TimingResult time_cpu(const TimingPolicy& policy, int n_sets, const SetFn& prepare,
                      const SetFn& run);

}  // namespace gpulab
