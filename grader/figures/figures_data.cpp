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

}  // namespace gpulab
