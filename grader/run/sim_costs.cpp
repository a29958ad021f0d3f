#include "run/sim_costs.h"

#include <filesystem>

#include "text/number_text.h"
#include "text/text_table.h"

namespace gpulab {

const std::vector<std::string>& cost_count_names() {
  static const std::vector<std::string> names = {
#define GPULAB_SIM_COST(name, what) #name,
#include <gpulab_sim/costs.def>
  };
  return names;
}

namespace {

// The table's row of one kernel.
std::vector<std::string> row(const std::string& who, const KernelCost& k, double work) {
  const double moved = 32 * (k.count("load_sectors") + k.count("store_sectors"));
  const double requests = k.count("load_requests") + k.count("store_requests");
  const auto per = [](double a, double b, const char* format) {
    return b > 0 ? printf_text(format, a / b) : std::string("-");
  };
  return {who,
          k.kernel,
          printf_text("%.0f", k.count("launches")),
          per(moved, work, "%.3g"),
          per(k.count("load_sectors") + k.count("store_sectors"), requests, "%.2f"),
          per(k.count("shared_wavefronts"), k.count("shared_requests"), "%.2f"),
          per(k.count("atomic_serial"), k.count("atomic_requests"), "%.2f"),
          per(100 * k.count("lanes_active"), k.count("lane_slots"), "%.0f%%"),
          printf_text("%.0f", k.count("barriers")),
          printf_text("%.3g", k.estimate_s * 1e6)};
}

}  // namespace

double KernelCost::count(const std::string& name) const {
  const auto it = counts.find(name);
  return it == counts.end() ? 0 : it->second;
}

std::vector<KernelCost> kernel_costs(const std::vector<nlohmann::json>& records) {
  std::vector<KernelCost> kernels;
  for (const nlohmann::json& r : records) {
    const auto field = [&](const char* name, bool number) -> const nlohmann::json& {
      if (!r.is_object() || !r.contains(name) ||
          (number ? !r[name].is_number() : !r[name].is_string()))
        throw std::runtime_error(std::string("a cost record without its \"") + name +
                                 "\": not the CPU backend's");
      return r[name];
    };
    KernelCost k;
    k.kernel = std::filesystem::path(field("file", false).get<std::string>()).filename().string() +
               ":" + std::to_string(field("line", true).get<long long>());
    k.gpu = field("gpu", false).get<std::string>();
    k.estimate_s = field("estimate_s", true).get<double>();
    for (const std::string& name : cost_count_names())
      k.counts[name] = field(name.c_str(), true).get<double>();
    kernels.push_back(std::move(k));
  }
  return kernels;
}

KernelCost all_kernels(const std::vector<KernelCost>& kernels) {
  KernelCost all;
  all.kernel = "all kernels";
  for (const KernelCost& k : kernels) {
    all.gpu = k.gpu;
    all.estimate_s += k.estimate_s;
    for (const auto& [name, v] : k.counts) all.counts[name] += v;
  }
  return all;
}

std::string cost_table(const std::vector<CostSide>& sides) {
  std::vector<std::vector<std::string>> rows;
  std::string gpu;
  for (const CostSide& side : sides) {
    if (side.kernels.empty()) {  // a stub, or code that runs on the host alone
      std::vector<std::string> none(10, "-");
      none[0] = side.who;
      none[1] = "no kernel launched";
      rows.push_back(none);
      continue;
    }
    for (const KernelCost& k : side.kernels) {
      rows.push_back(row(side.who, k, side.work));
      gpu = k.gpu;
    }
    if (side.kernels.size() != 1)
      rows.push_back(row(side.who, all_kernels(side.kernels), side.work));
  }
  return text_table({{""},
                     {"kernel"},
                     {"launches", true},
                     {"bytes/unit", true},
                     {"sectors/req", true},
                     {"wavefronts/req", true},
                     {"serial atomics/req", true},
                     {"lanes active", true},
                     {"barriers", true},
                     {"est. us" + (gpu.empty() ? "" : " (" + gpu + ")"), true}},
                    rows);
}

std::string cost_legend(const std::string& unit) {
  return "  bytes/unit: global memory moved (32-byte sectors, loads and stores) per work unit (" +
         unit +
         "). sectors/req: per warp load or store (4 when 32 lanes touch consecutive floats, 32 "
         "when each lane's is in a sector of its own). wavefronts/req: per shared-memory "
         "request (1: no bank conflict; 32: every lane in one bank). serial atomics/req: the "
         "most lanes of a warp's atomic on one address. lanes active: of the lane slots of "
         "every request (divergence, tails). barriers: __syncthreads() passed, summed over "
         "blocks. est. us: a roofline estimate for that GPU (memory, shared memory, atomics, "
         "launches), not a measurement; it ranks versions of one kernel.\n";
}

}  // namespace gpulab
