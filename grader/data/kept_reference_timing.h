// The reference's timed rounds on one timing dataset, kept per machine so that a grading times
// the reference once and later gradings on the same GPU check it with one run instead of timing
// it beside every student round (docs/GRADING.md, "The reference's time, kept per GPU"). Kept
// in the timing dataset's notes folder (dataset_store.h), beside its cache entry, one file per
// key: what the times were measured for (the GPU or host, the reference build, the part, the
// sampling, the timed samples themselves) is written in the file and must match whole.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset_store.h"

namespace gpulab {

struct KeptReferenceTiming {
  std::vector<double> round_ms;  // the reference's median time of each round, as measured
  double work = 0;               // the work its runs reported
  std::string measured;          // when, UTC ("2026-12-07T14:05:09Z")
};

// The timing kept under `key` for the timing dataset `d`, where one is kept and holds plausible
// times (a file of another key, of the wrong types or too large is not used).
std::optional<KeptReferenceTiming> kept_reference_timing(const DatasetDirs& d,
                                                         const nlohmann::json& key);

// Keeps `t` under `key`, replacing what was kept there, written whole (atomic_file.h). Throws
// std::runtime_error where the file cannot be written, or `t` holds no plausible time.
void keep_reference_timing(const DatasetDirs& d, const nlohmann::json& key, KeptReferenceTiming t);

}  // namespace gpulab
