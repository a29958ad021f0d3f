#include "data/dataset_store.h"

#include <unistd.h>

#include <fstream>

#include "core/grade_phases.h"
#include "files/file_lock.h"
#include "files/secret.h"
#include "files/temporaries.h"
#include "registry.h"

namespace gpulab {

namespace {

// What a hidden dataset's seed is drawn for (secret_seed's purpose).
constexpr const char* kHiddenDatasetPurpose = "gpulab hidden dataset";

// Whether the entry `dir` is there. It is whole once there (renamed into place whole); one whose
// meta.json is not `meta` was changed by hand, and is never replaced under its readers.
bool entry_present(const std::filesystem::path& dir, const nlohmann::json& meta) {
  if (!std::filesystem::exists(dir)) return false;
  std::ifstream in(dir / "input" / "meta.json");
  try {
    if (in && nlohmann::json::parse(in) == meta) return true;
  } catch (const nlohmann::json::exception&) {
  }
  throw std::runtime_error("the dataset cache entry " + dir.string() +
                           " is not the dataset its name says (changed or partly deleted by "
                           "hand?): remove that folder, then grade again");
}

}  // namespace

uint64_t dataset_seed(const DatasetSpec& ds, const std::string& secret) {
  return ds.seed ? *ds.seed : secret_seed(secret, kHiddenDatasetPurpose, ds.name);
}

DatasetDirs materialize(const LabConfig& lab, const GroupSpec& group, const DatasetSpec& ds,
                        const std::string& secret, const std::filesystem::path& root) {
  const DatasetGenerator* gen = find_generator(lab.id);
  if (!gen) throw std::runtime_error("no dataset generator is registered for lab " + lab.id);
  const uint64_t seed = dataset_seed(ds, secret);
  // What runs read (and the oracle's parameters): never the seed.
  const nlohmann::json meta = {{"lab", lab.id},
                               {"generator_version", gen->version()},
                               {"name", ds.name},
                               {"params", ds.params}};
  nlohmann::json identity = meta;
  identity["seed"] = seed;
  const std::string key = to_hex(sha256(identity.dump()));
  const auto dir = root / group.name / ds.name / key;
  const DatasetDirs d{group.name, ds.name, group.hidden, dir / "input", dir / "expected"};
  if (entry_present(dir, meta)) return d;
  // Graders running side by side (gpulab grade-all) share the cache: one generates the entry
  // while the others wait, then find it.
  const FileLock lock(root / ".locks" / (key + ".lock"));
  if (entry_present(dir, meta)) return d;
  // Built beside its place and renamed, so no one ever sees a half dataset.
  // A stop (Ctrl-C) or a failure on the way removes it (temporaries.h).
  Temporary tmp(dir.parent_path() / ("." + key + ".tmp" + std::to_string(getpid())));
  std::filesystem::remove_all(tmp.path());
  std::filesystem::create_directories(tmp.path() / "input");
  std::filesystem::create_directories(tmp.path() / "expected");
  try {
    std::ofstream(tmp.path() / "input" / "meta.json") << meta.dump(2) << "\n";
    {
      const ScopedPhase phase(GradePhase::kGenerate);
      gen->generate(ds.params, seed, tmp.path() / "input");
    }
    const ScopedPhase phase(GradePhase::kOracle);
    gen->oracle(tmp.path() / "input", tmp.path() / "expected");
  } catch (const std::exception& e) {
    throw std::runtime_error("generating dataset " + lab.id + "/" + ds.name +
                             " failed: " + e.what());
  }
  tmp.rename_to(dir);
  return d;
}

std::filesystem::path notes_dir(const DatasetDirs& d) {
  const auto entry = d.input.parent_path();
  return entry.parent_path() / (entry.filename().string() + ".notes");
}

}  // namespace gpulab
