// A bench sweep's measurements as a file (docs/bench/<lab>/<sweep>.json): written by
// `gpulab bench <lab> --sweep <name> --json FILE` on a GPU, read by `gpulab figures`, which
// draws the handouts' plots from the recorded numbers so that they redraw byte for byte on a
// machine without a GPU.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "files/paths.h"
#include "lab/lab_config.h"

namespace gpulab {

struct SweepRow {
  long long value = 0;  // the varied quantity
  std::string part;
  double median_ms = 0, rel_se = 0;
  double per_s = 0;  // work units per second
};

struct SweepRecord {
  std::string lab, sweep;
  std::string device;        // "NVIDIA H100 80GB HBM3 (sm_90)"
  std::string date;          // YYYY-MM-DD, UTC
  std::string work_unit;     // lab.json's timing.work_unit
  double ceiling_per_s = 0;  // the parts' ceiling (0: none)
  std::vector<SweepRow> rows;
};

nlohmann::json to_json(const SweepRecord& r);
// Reads a record and checks it against the lab's sweep: the same lab and sweep, every row one
// of its values and parts, finite positive numbers, and no (value, part) missing or twice.
// Throws std::runtime_error naming the file and the problem, and how to record it again.
SweepRecord read_sweep_record(const std::filesystem::path& file, const LabConfig& lab,
                              const BenchSweep& sweep);

// Where a sweep's record lives in the source tree: docs/bench/<lab>/<sweep>.json.
std::filesystem::path sweep_record_path(const Paths& paths, const std::string& lab,
                                        const std::string& sweep);
// The command that records it there.
std::string sweep_record_command(const std::string& lab, const std::string& sweep);

}  // namespace gpulab
