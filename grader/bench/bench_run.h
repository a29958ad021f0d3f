// One timed run for gpulab bench and its sweeps: the runner in a process of its own on one part
// and dataset, timed as `mode` (runner flags: timing_arguments) says.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/dataset_store.h"
#include "data/sealed_outputs.h"
#include "lab/lab_config.h"
#include "os/process.h"

namespace gpulab {

// One run, in a fresh working folder `work_dir`, with its channel: the process's outcome, its
// record (null without one) and the outputs it handed over. With `mode` empty, a plain run whose
// outputs check.h can compare.
struct BenchRun {
  ProcessResult process;
  nlohmann::json record;
  std::shared_ptr<const SealedOutputs> outputs;
};
BenchRun bench_run(const std::filesystem::path& runner, const PartSpec& part, const DatasetDirs& d,
                   const std::filesystem::path& work_dir, const std::vector<std::string>& mode);

// What a "timing" object of a result.json says: the median, its relative standard error, and
// `work` done per second over the median. The baseline's timing is read with the reference's
// work (result.json's "work"), as both did the same.
struct BenchTiming {
  double median_ms = 0, rel_se = 0, per_s = 0;
};
BenchTiming bench_timing(const nlohmann::json& timing, double work);

// `per_s` as a share of the lab's `ceiling`, "97.3%"; "-" where there is none (0).
std::string share_of_ceiling(double per_s, double ceiling);

}  // namespace gpulab
