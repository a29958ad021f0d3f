#include "lab/output_order.h"

#include <algorithm>
#include <functional>
#include <set>

namespace gpulab {

std::vector<std::string> data_flow_order(const LabConfig& lab, const PartSpec& part) {
  std::vector<std::string> order;
  std::set<std::string> seen;  // placed, or being placed: a cycle ends where it began
  const auto of_part = [&](const std::string& name) {
    return std::find(part.outputs.begin(), part.outputs.end(), name) != part.outputs.end();
  };
  // Depth first: what an output's layout is read from goes before it.
  std::function<void(const std::string&)> place = [&](const std::string& name) {
    if (!seen.insert(name).second) return;
    if (const auto spec = lab.outputs.find(name); spec != lab.outputs.end())
      for (const std::string& from : {spec->second.tolerance.starts, spec->second.tolerance.counts})
        if (!from.empty() && of_part(from)) place(from);
    order.push_back(name);
  };
  for (const auto& name : part.outputs) place(name);
  return order;
}

}  // namespace gpulab
