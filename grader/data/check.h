// The grader's comparison of one runner's outputs with the expected ones.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "data/dataset_store.h"
#include "data/sealed_outputs.h"
#include "lab/lab_config.h"

namespace gpulab {

struct CheckResult {
  bool pass = false;
  double max_err_over_bound = 0;  // the worst over the outputs checked
  std::string message;            // one line per output, for the student
  // The first call's outputs were right and a second call's (repeated) were not: the code
  // keeps state from one call to the next (the message says so).
  bool state_leak = false;
};

// Compares the run's output <output> (and, with timed, timed_<output>; with repeated, the second
// call's repeat_<output>, runner_flags.h's kRepeatPrefix) for each of the part's outputs, as the
// run handed them over (sealed_outputs.h). A missing, malformed or wrongly shaped output fails
// with a message; it never throws for bad runner output.
CheckResult check_outputs(const LabConfig& lab, const PartSpec& part, const DatasetDirs& ds,
                          const SealedOutputs& got, bool timed, bool repeated = false);

// The outputs a run that failed handed over as its kernels left them (the CPU backend's,
// harness/run_part.h), for the lines beside its failure: each one its code wrote, at least in
// part, and got wrong, in data-flow order (output_order.h), so that the wrong output an earlier
// kernel made is read before the failure it caused later. Empty where none is. Never throws for
// bad runner output.
std::string outputs_left_by_failure(const LabConfig& lab, const PartSpec& part,
                                    const DatasetDirs& ds, const SealedOutputs& got);

// Each element's bound on `spec`'s output on `ds`, as check_outputs compares it (a float32
// output under the sum_magnitude tolerance: harness/compare.h); std::invalid_argument for
// another output, std::runtime_error where the dataset lacks what the bound reads.
std::vector<double> element_bounds(const OutputSpec& spec, const DatasetDirs& ds);

// Compares the outputs of each timed sample k of a graded timed run (sample<k>_<output>,
// harness/sample_protocol.h) with those of its own dataset, samples[k-1]. The message names the
// samples that failed, with their first failing output.
CheckResult check_sample_outputs(const LabConfig& lab, const PartSpec& part,
                                 const std::vector<DatasetDirs>& samples, const SealedOutputs& got);

}  // namespace gpulab
