#include "bench_run.h"

#include "number_text.h"
#include "runner_client.h"
#include "runner_protocol.h"

namespace gpulab {

std::pair<ProcessResult, nlohmann::json> bench_run(const std::filesystem::path& runner,
                                                   const PartSpec& part, const DatasetDirs& d,
                                                   const std::filesystem::path& out_dir,
                                                   const std::vector<std::string>& mode) {
  std::filesystem::remove_all(out_dir);
  std::filesystem::create_directories(out_dir);
  std::vector<std::string> argv =
      runner_command(runner.string(), part.name, d.input.string(), out_dir.string());
  argv.insert(argv.end(), mode.begin(), mode.end());
  const ProcessResult p = run_process({argv, out_dir, 600, 16 * 1024, 0, 0, part.runner_env()});
  return {p, read_result(out_dir)};
}

BenchTiming bench_timing(const nlohmann::json& timing, double work) {
  const double ms = timing.at("median_ms").get<double>();
  return {ms, timing.value("rel_se", 0.0), work / (ms * 1e-3)};
}

std::string share_of_ceiling(double per_s, double ceiling) {
  return ceiling > 0 ? printf_text("%.1f%%", 100 * per_s / ceiling) : "-";
}

}  // namespace gpulab
