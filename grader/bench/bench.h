// gpulab bench: the reference's timings on the timing datasets, as throughput next to the
// ceiling in lab.json, so a course can see what the hardware allows.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

namespace gpulab {

struct BenchOptions {
  std::string lab;
  std::string part;            // empty: every part
  std::string runner;          // empty: the reference runner; else a runner to bench instead
  std::string sweep;           // one of lab.json's bench_sweeps instead of the timing datasets
  std::filesystem::path json;  // with sweep: where to record it (bench_record.h)
};

// Returns the process exit status: 0 when every benchmark ran; kExitNeedsGpu (exit_status.h)
// when GPU parts were skipped for want of a GPU; 1 when a run failed.
int bench(const BenchOptions& options, std::ostream& out);

}  // namespace gpulab
