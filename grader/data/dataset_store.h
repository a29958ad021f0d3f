// Materializing datasets: generate the inputs and the oracle's expected outputs once per
// (lab, generator version, name, params, seed), into a cache the grader alone reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "lab/lab_config.h"

namespace gpulab {

struct DatasetDirs {
  std::string group, name;
  bool hidden = false;
  std::filesystem::path input, expected;  // input/ is what a runner sees
};

// The seed a dataset is generated with: its fixed seed, or one drawn from the instructor's
// secret (the hidden seed) and its name with HMAC-SHA256 (secret.h).
uint64_t dataset_seed(const DatasetSpec& ds, const std::string& secret);

// The dataset's cache entry, root/<group>/<name>/<key>/{input,expected}, generated unless it is
// there. The key is the SHA-256 of the dataset's identity (lab, generator version, name, params,
// seed), so datasets of different secrets or parameters never share an entry. An entry is made
// once, whole (generated beside it and renamed into place, under a lock so that graders side by
// side generate it once; a stop or a failure before the rename removes it: temporaries.h), and
// never changed or replaced afterwards: a grader that finds it reads it without a lock while others
// grade. input/meta.json, which runs read, holds the lab, generator version, name and params, never
// the seed. Throws std::runtime_error naming the lab and dataset when generation fails, and naming
// the entry when one there is not what it names.
DatasetDirs materialize(const LabConfig& lab, const GroupSpec& group, const DatasetSpec& ds,
                        const std::string& secret, const std::filesystem::path& root);

// The dataset's notes folder: beside its entry, named after it, for what is learnt about the
// dataset after it was made (the reference's CPU time on the CPU backend: reference_time.h),
// since the entry itself is never changed.
std::filesystem::path notes_dir(const DatasetDirs& d);

}  // namespace gpulab
