// What a lab driver sees of the runner: the parts it registers, and the context of one run.
//
// A driver (labs/<id>/driver.cpp) registers each part with GPULAB_PART; the runner main
// (runner_main.cpp) picks the part named on its command line, runs it on one dataset, and hands
// the outputs (.npy) and its record to the grader over the grader's channel
// (grader_channel.h). Runners never see expected outputs and never score.
#pragma once

#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dataset.h"
#include "npy.h"
#include "timing.h"

namespace gpulab {

class MovingInputs;  // input_sets.h

struct RunContext {
  Dataset dataset;
  bool time = false;
  TimingPolicy policy;
  nlohmann::json result = nlohmann::json::object();
  // Time the lab's trusted baseline, if it has one, instead of the student's function, which is
  // then never called (runner_flags.h, kTimeBaselineFlag): the grader times the baseline in a
  // process of its own, so nothing the student's code leaves behind can slow it.
  bool time_baseline = false;
  // Call the student's function a second time on fresh inputs and write its outputs too
  // (runner_flags.h, kCallTwiceFlag).
  bool call_twice = false;
  // A graded timed run (sample_protocol.h): the first call is followed by `warmup_calls`
  // untimed ones; then the part runs once more for each sample k = 1, 2, ... with `sample` = k
  // and `dataset` that sample's own, times one call, hands over its outputs as
  // sample<k>_<output> and then its time (sample_done). 0: not a sample.
  int warmup_calls = 0;
  int sample = 0;
  // The samples are correctness datasets (sample_protocol.h, kBatchFlag): each is called as a
  // first call is, untimed, its outputs handed over as sample<k>_<output>.
  bool batch = false;
  std::vector<double> sample_ms = {};
  void sample_done(const SampleTime& t);
  // A GPU part's clock for its samples, made once before the first is asked for: its L2 flush
  // buffer and events are then no part of any sample's time on the grader's outside clock.
  std::shared_ptr<GpuClock> gpu_clock = nullptr;
  // The inputs that move before each timed sample (input_sets.h), which they keep up to date.
  std::vector<MovingInputs*> moving_inputs = {};
  void refresh_inputs(int set);
  // After a call of `what` whose outputs are checked: every input of set `set` as it was written
  // before the call, or throw, naming the input (a function may not change its const inputs).
  // Nothing where `trusted` (the lab's reference: runner_flags.h, kReferenceFlag).
  void check_inputs(int set, const char* what) const;
  bool trusted = false;
  // Whether outputs are handed over at all: not by the first call and the warmup of a graded
  // timed run (its samples' outputs are the ones checked).
  bool write_outputs = true;

  // Hands the grader output `file` (an .npy array of `dtype` and `shape` whose data `fill`
  // writes) and lists it in result["outputs"]; nothing without write_outputs.
  void send_output(const std::string& file, DType dtype, const std::vector<size_t>& shape,
                   const std::function<void(void* data)>& fill);
  template <class T>
  void write_output(const std::string& file, const std::vector<size_t>& shape, const T* host) {
    send_output(file, dtype_of<T>(), shape, [&](void* data) {
      const size_t bytes = npy_data_bytes(dtype_of<T>(), shape);
      if (bytes) std::memcpy(data, host, bytes);
    });
  }
};

struct Part {
  std::string name;
  bool gpu = false;  // needs a CUDA device
  void (*run)(RunContext&) = nullptr;
};

bool register_part(const Part& part);
const Part* find_part(const std::string& name);
std::vector<Part> all_parts();

}  // namespace gpulab

#define GPULAB_PART_CAT2(a, b) a##b
#define GPULAB_PART_CAT(a, b) GPULAB_PART_CAT2(a, b)
#define GPULAB_PART(NAME, NEEDS_GPU, FN)                                 \
  static const bool GPULAB_PART_CAT(gpulab_registered_part_, __LINE__) = \
      ::gpulab::register_part({NAME, NEEDS_GPU, FN})
