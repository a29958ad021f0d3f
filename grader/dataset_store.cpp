#include "dataset_store.h"

#include <unistd.h>

#include <fstream>

#include "file_lock.h"
#include "generator_registry.h"
#include "rng.h"

namespace gpulab {

uint64_t dataset_seed(const DatasetSpec& ds, uint64_t hidden_seed) {
  return ds.seed ? *ds.seed : derive_seed(hidden_seed, ds.name);
}

DatasetDirs materialize(const LabConfig& lab, const GroupSpec& group, const DatasetSpec& ds,
                        uint64_t hidden_seed, const std::filesystem::path& root) {
  const DatasetGenerator* gen = find_generator(lab.id);
  if (!gen) throw std::runtime_error("no dataset generator is registered for lab " + lab.id);
  DatasetDirs d{group.name, ds.name, group.hidden, dataset_seed(ds, hidden_seed), {}, {}};
  const nlohmann::json meta = {{"lab", lab.id},
                               {"generator_version", gen->version()},
                               {"name", ds.name},
                               {"params", ds.params},
                               {"seed", d.seed}};
  const auto dir = root / group.name / ds.name;
  d.input = dir / "input";
  d.expected = dir / "expected";
  // Graders running side by side (gpulab grade-all) share the cache: one generates a dataset
  // while the others wait, then find it complete, rather than replacing it under their readers.
  const FileLock lock(root / ".locks" / group.name / (ds.name + ".lock"));
  {
    std::ifstream old(d.input / "meta.json");
    if (old && std::filesystem::exists(dir / "complete")) {
      try {
        if (nlohmann::json::parse(old) == meta) return d;
      } catch (const nlohmann::json::exception&) {
      }
    }
  }
  // Build beside the final place and rename, so an interrupted run leaves no half dataset.
  const auto tmp = root / group.name / (ds.name + ".tmp" + std::to_string(getpid()));
  std::filesystem::remove_all(tmp);
  std::filesystem::create_directories(tmp / "input");
  std::filesystem::create_directories(tmp / "expected");
  try {
    std::ofstream(tmp / "input" / "meta.json") << meta.dump(2) << "\n";
    gen->generate(ds.params, d.seed, tmp / "input");
    gen->oracle(tmp / "input", tmp / "expected");
    std::ofstream(tmp / "complete") << "ok\n";
  } catch (const std::exception& e) {
    std::filesystem::remove_all(tmp);
    throw std::runtime_error("generating dataset " + lab.id + "/" + ds.name +
                             " failed: " + e.what());
  }
  std::filesystem::remove_all(dir);
  std::filesystem::rename(tmp, dir);
  return d;
}

}  // namespace gpulab
