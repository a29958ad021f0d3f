// The mechanism every part shares: run the student's function once on poisoned outputs and hand
// them to the grader, then, when asked, time it by the protocol and hand over the outputs of the
// timed samples too, so that timed runs are checked as well. After every call whose outputs are
// checked, its inputs must be as they were (a function may not write into its const inputs).
// Drivers supply only how to call the student. When the grader asks (runner_flags.h), the
// function is called a second time on a fresh copy of the inputs and those outputs are handed
// over too; or, in a baseline run, it is not called at all and the driver times only the lab's
// trusted baseline. Each call goes through student_call.h's boundary, and its outputs are
// captured before the student's code runs again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "poison.h"
#include "runner.h"

namespace gpulab {

// The name and shape of one output array.
struct OutputArray {
  std::string name;
  std::vector<size_t> shape;
  size_t count() const;
};

constexpr size_t kGuardWords = 16384;  // 64 KB of 32-bit words on each side

// Throws, naming `what`, when a guard zone no longer holds only poison. `buffer` is the whole
// allocation of 32-bit words: guard, the output's `count` values, guard.
void check_guards(const void* buffer, size_t count, const char* what);
// The same for the two guard zones apart, kGuardWords words each.
void check_guards(const uint32_t* before, const uint32_t* after, const char* what);

// One output of 32-bit elements (float or int32_t) per input set, poisoned before each call.
// Each array sits between two guard zones that are poisoned too and checked after every call,
// so a write past either end (a missing bounds check) is caught even where it would not fault.
template <class T>
class GpuOutputsOf {
  static_assert(sizeof(T) == 4, "outputs hold 32-bit elements: the poison is one 32-bit word");

 public:
  GpuOutputsOf(OutputArray spec, int n_sets);
  T* get(int set) { return sets_[static_cast<size_t>(set)].get() + kGuardWords; }
  void poison(int set);
  // Checks the guards of `set` and hands its values to the grader as the run's output `file`.
  void send(RunContext& ctx, const std::string& file, int set, const char* what) const;
  // After a call that failed, where the backend can read its device memory still
  // (backend_hooks.h): hands `set`'s values over as the student's kernels left them, unchecked.
  void send_as_left(RunContext& ctx, const std::string& file, int set) const;
  const OutputArray& spec() const { return spec_; }

 private:
  OutputArray spec_;
  std::vector<DeviceBuffer<T>> sets_;
  DeviceBuffer<T> poison_;  // the poisoned image of one set, guards included
};
using GpuOutputs = GpuOutputsOf<float>;
using GpuIntOutputs = GpuOutputsOf<int32_t>;

class CpuOutputs {
 public:
  CpuOutputs(OutputArray spec, int n_sets);
  float* get(int set) { return sets_[static_cast<size_t>(set)].data() + kGuardWords; }
  void poison(int set);
  // Checks the guards of `set` and returns its values.
  const float* checked(int set, const char* what) const;
  const OutputArray& spec() const { return spec_; }

 private:
  OutputArray spec_;
  std::vector<std::vector<float>> sets_;
};

// How many copies of the inputs a part should make: the policy's input_sets when timing, else 1.
int input_sets(const RunContext& ctx);

// `call(set)` invokes the student's host function on input set `set` and outputs `out.get(set)`.
// `what` names the function in error messages ("dcs_gather").
template <class T>
void run_gpu_part(RunContext& ctx, GpuOutputsOf<T>& out, const SetFn& call, const char* what);
// The same for a function with several outputs (a grid's cell starts, counts and index): every
// one is poisoned before each call, its guards checked, and it is written (and its timed_ copy).
// Where the first call fails and the backend can still read device memory (the CPU backend), the
// outputs are handed over as its kernels left them before the failure is reported: an output an
// earlier kernel got wrong (a CSR list's starts) is then told beside the failure it caused (the
// fill running past the list's end).
template <class T>
void run_gpu_part(RunContext& ctx, const std::vector<GpuOutputsOf<T>*>& outs, const SetFn& call,
                  const char* what);
void run_cpu_part(RunContext& ctx, CpuOutputs& out, const SetFn& call, const char* what);

// Time a trusted baseline (the lab's plain version, not student code) on the same protocol;
// the GPU one rotates over n_sets input sets as the student's runs do.
TimingResult time_cpu_baseline(const RunContext& ctx, const SetFn& call);
TimingResult time_gpu_baseline(const RunContext& ctx, int n_sets, const SetFn& call);

}  // namespace gpulab
