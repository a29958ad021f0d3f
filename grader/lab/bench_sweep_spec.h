// lab.json's "bench_sweeps": measurements `gpulab bench --sweep` makes of the reference over one
// varied quantity, which `gpulab figures` draws as the handouts' plots (scatter against gather
// as the atoms grow, throughput against points per thread, the histograms under contention).
// A sweep varies either a generator parameter of one of the lab's timing datasets, or a macro
// the reference's student files are compiled with (the constant a student would edit by hand).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

class LabJsonReader;
struct LabConfig;

struct BenchSweep {
  std::string name;     // its record's file name (docs/bench/<lab>/<name>.json) and the figure's
  std::string title;    // the plot's title
  std::string axis;     // the varied quantity in words: "atoms", "points per thread"
  std::string dataset;  // a timing dataset that applies to each part
  std::vector<std::string> parts;  // each a line of the plot
  // Exactly one is set: the dataset's generator parameter given each value, or the macro
  // defined to each value before the reference's student files (`#define NAME value`).
  std::string param, define;
  nlohmann::json params = nlohmann::json::object();  // the dataset's params changed at every point
  std::vector<long long> values;                     // > 0 and increasing

  // The dataset's params at one value of a parameter sweep.
  nlohmann::json params_at(const nlohmann::json& dataset_params, long long value) const;
};

// Parses lab.json's "bench_sweeps" once the lab's parts and dataset groups are known (`lab`).
std::vector<BenchSweep> parse_bench_sweeps(const nlohmann::json& sweeps, const LabConfig& lab,
                                           const LabJsonReader& r);

}  // namespace gpulab
