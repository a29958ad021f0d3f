// The mechanism every part shares: run the student's function once on poisoned outputs and save
// them, then, when asked, time it by the protocol and save the outputs of the last timed sample
// too, so that timed runs are checked as well. Drivers supply only how to call the student.
#pragma once

#include <string>
#include <vector>

#include "device_buffer.h"
#include "poison.h"
#include "runner.h"

namespace gpulab {

// One float output per input set, poisoned before each call. Each array sits between two
// guard zones that are poisoned too and checked after every call, so a write past either end
// (a missing bounds check) is caught even where it would not fault.
struct FloatOutput {
  std::string name;
  std::vector<size_t> shape;
  size_t count() const;
};

constexpr size_t kGuardFloats = 16384;  // 64 KB on each side

// Throws, naming `what`, when a guard zone no longer holds only poison. `buffer` is the whole
// allocation: guard, the output's `count` values, guard.
void check_guards(const float* buffer, size_t count, const char* what);

class GpuOutputs {
 public:
  GpuOutputs(FloatOutput spec, int n_sets);
  float* get(int set) { return sets_[static_cast<size_t>(set)].get() + kGuardFloats; }
  void poison(int set);
  // Checks the guards of `set` and returns its values.
  std::vector<float> download(int set, const char* what) const;
  const FloatOutput& spec() const { return spec_; }

 private:
  FloatOutput spec_;
  std::vector<DeviceBuffer<float>> sets_;
  std::vector<float> poison_;
};

class CpuOutputs {
 public:
  CpuOutputs(FloatOutput spec, int n_sets);
  float* get(int set) { return sets_[static_cast<size_t>(set)].data() + kGuardFloats; }
  void poison(int set);
  // Checks the guards of `set` and returns its values.
  const float* checked(int set, const char* what) const;
  const FloatOutput& spec() const { return spec_; }

 private:
  FloatOutput spec_;
  std::vector<std::vector<float>> sets_;
};

// How many copies of the inputs a part should make: the policy's input_sets when timing, else 1.
int input_sets(const RunContext& ctx);

// `call(set)` invokes the student's host function on input set `set` and outputs `out.get(set)`.
// `what` names the function in error messages ("dcs_gather").
void run_gpu_part(RunContext& ctx, GpuOutputs& out, const SetFn& call, const char* what);
void run_cpu_part(RunContext& ctx, CpuOutputs& out, const SetFn& call, const char* what);

// Time a trusted baseline (the lab's plain version, not student code) on the same protocol;
// the GPU one rotates over n_sets input sets as the student's runs do.
TimingResult time_cpu_baseline(const RunContext& ctx, const SetFn& call);
TimingResult time_gpu_baseline(const RunContext& ctx, int n_sets, const SetFn& call);

}  // namespace gpulab
