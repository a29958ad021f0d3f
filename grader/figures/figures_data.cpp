#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "data/dataset_store.h"
#include "figures/figures.h"

namespace gpulab {

GeneratedDataset generate_public_dataset(const LabConfig& lab, const std::string& name,
                                         const std::filesystem::path& work) {
  for (const auto& g : lab.groups) {
    if (g.hidden) continue;
    for (const auto& ds : g.datasets) {
      if (ds.name != name || !ds.seed) continue;
      // The grader's own way to a dataset, in a cache of its own under `work`.
      const DatasetDirs d = materialize(lab, g, ds, "", work);
      return {&ds, d.input, d.expected};
    }
  }
  throw std::runtime_error(lab.id + " has no public dataset \"" + name + "\" with a fixed seed");
}

OffsetRange offset_range(double cutoff, double bin, double a, double extent) {
  return {static_cast<int>(std::floor((a - cutoff) / bin)),
          static_cast<int>(std::ceil((a + extent + cutoff) / bin)) - 1};
}

double offset_gap(int o, double bin, double a, double extent) {
  return std::max({0.0, o * bin - (a + extent), a - (o + 1) * bin});
}

}  // namespace gpulab
