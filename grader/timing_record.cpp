#include "timing_record.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats.h"

namespace gpulab {

std::string timing_record_problem(const nlohmann::json& result, const TimingPolicy& policy) {
  if (!result.is_object() || !result.contains("timing") || !result["timing"].is_object())
    return "it has no timing";
  const nlohmann::json& t = result["timing"];
  if (!t.contains("samples_ms") || !t["samples_ms"].is_array() || t["samples_ms"].empty())
    return "it lists no samples";
  std::vector<double> samples;
  for (const auto& v : t["samples_ms"]) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || !(v.get<double>() > 0))
      return "a sample is not a positive time";
    samples.push_back(v.get<double>());
  }
  const size_t most = static_cast<size_t>(std::max(0, policy.max_samples));
  const size_t least = std::min(most, static_cast<size_t>(std::max(0, policy.min_samples)));
  if (samples.size() < least || samples.size() > most)
    return std::to_string(samples.size()) + " samples, where the policy takes " +
           std::to_string(least) + " to " + std::to_string(most);
  const double m = median(samples);
  const nlohmann::json reported = t.value("median_ms", nlohmann::json());
  if (!reported.is_number() || std::abs(reported.get<double>() - m) > 1e-9 * m)
    return "its median is not the median of its samples";
  return "";
}

}  // namespace gpulab
