// The reference's CPU time on one dataset on the CPU backend, which a correctness run's limit
// there follows (run_limit.h). Measured once and kept in a small file in the dataset's notes
// folder, beside its cache entry (dataset_store.h), never inside the entry, which is never
// changed. The file holds what the time was measured for (the dataset's meta.json, the part, the
// runner's flags, the reference build) and is used only where all of it matches.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset_store.h"

namespace gpulab {

struct ReferenceRun {
  std::string part;
  std::vector<std::string> flags;  // the runner's flags, as the student's run gets them
  std::string reference;           // the reference runner's content_hash
};

// The time kept for `run` on `d`, where there is one (nothing is measured).
std::optional<double> kept_reference_cpu_time(const DatasetDirs& d, const ReferenceRun& run);

// The time kept for `run` on `d`, or else `measure`d (CPU seconds) and kept, written whole
// (atomic_file.h). Graders sharing the cache measure it once: one measures while the others
// wait for its file (a lock per file). A file that does not parse, names another dataset, part,
// flags or reference build, or holds no plausible time is not used: the time is measured again
// and the file replaced. Throws what `measure` throws, and std::runtime_error when `measure`
// returns no plausible time.
double reference_cpu_time(const DatasetDirs& d, const ReferenceRun& run,
                          const std::function<double()>& measure);

}  // namespace gpulab
