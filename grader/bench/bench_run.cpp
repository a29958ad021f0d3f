#include "bench/bench_run.h"

#include <limits>

#include "run/runner_client.h"
#include "runner_protocol.h"
#include "text/number_text.h"

namespace gpulab {

BenchRun bench_run(const std::filesystem::path& runner, const PartSpec& part, const DatasetDirs& d,
                   const std::filesystem::path& work_dir, const std::vector<std::string>& mode) {
  std::filesystem::remove_all(work_dir);
  std::filesystem::create_directories(work_dir);
  std::vector<std::string> argv = runner_command(runner.string(), part.name, d.input.string());
  argv.insert(argv.end(), mode.begin(), mode.end());
  // Trusted code (the reference, or a variant of it): any output size goes.
  RunChannel channel(output_names(part, 0), std::numeric_limits<size_t>::max(), nullptr);
  ProcessOptions po{argv, work_dir, 600, 16 * 1024, 0, 0, part.runner_env()};
  po.channel_fd = kChannelFd;
  po.on_message = [&](ChannelMessage& m) { return channel.on_message(m); };
  const ProcessResult p = run_process(po);
  return {p, channel.record(), channel.outputs()};
}

BenchTiming bench_timing(const nlohmann::json& timing, double work) {
  const double ms = timing.at("median_ms").get<double>();
  return {ms, timing.value("rel_se", 0.0), work / (ms * 1e-3)};
}

std::string share_of_ceiling(double per_s, double ceiling) {
  return ceiling > 0 ? printf_text("%.1f%%", 100 * per_s / ceiling) : "-";
}

}  // namespace gpulab
