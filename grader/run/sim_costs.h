// The CPU backend's cost model as gpulab reads it (sim/README.md, "The cost model"): a profiled
// run's cost records, one per kernel, and the table `gpulab time` prints of them, the student's
// kernels beside the reference's on the same dataset. The records come from the student's
// process, which could write its own: the table scores nothing, and says only what the run said.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

// One kernel (its launch site) of one run: its counts, each a costs.def name.
struct KernelCost {
  std::string kernel;  // file:line of the launch, the file's name alone
  std::string gpu;     // the GPU the estimate is for
  double estimate_s = 0;
  std::map<std::string, double> counts;
  double count(const std::string& name) const;  // 0 where absent
};

// costs.def's names, in its order: every record carries each.
const std::vector<std::string>& cost_count_names();

// The cost records of a run, in order; throws on a record that lacks a field or has one of
// another type (it was not the CPU backend's).
std::vector<KernelCost> kernel_costs(const std::vector<nlohmann::json>& records);

// Every kernel's counts added, "all kernels".
KernelCost all_kernels(const std::vector<KernelCost>& kernels);

// A row per kernel and a total for each side: `who` names the side ("yours", "reference");
// `work` is the run's work units (its record's "work"), for the per-unit column.
struct CostSide {
  std::string who;
  std::vector<KernelCost> kernels;
  double work = 0;
};
std::string cost_table(const std::vector<CostSide>& sides);

// What each column means, for under the table; `unit` names the work units.
std::string cost_legend(const std::string& unit);

}  // namespace gpulab
