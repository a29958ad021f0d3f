// gpulab bench <lab> --sweep <name>: one of lab.json's bench_sweeps (bench_sweep_spec.h)
// measured on the GPU: the reference timed at each value, printed as a table and, with --json,
// recorded for `gpulab figures` (bench_record.h).
#pragma once

#include <ostream>

#include "bench/bench.h"
#include "lab/lab_config.h"

namespace gpulab {

// Returns the exit status as bench() does: kExitNeedsGpu without a GPU (nothing recorded),
// 1 when a run failed or a variant's outputs were wrong (nothing recorded). Throws on an
// unknown sweep (the message lists the lab's).
int bench_sweep(const LabConfig& lab, const BenchOptions& options, std::ostream& out);

}  // namespace gpulab
