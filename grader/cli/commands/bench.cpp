// gpulab bench <lab>: the reference timed against the hardware's ceiling (bench/).
#include "bench/bench.h"

#include <iostream>

#include "cli/commands/commands.h"
#include "os/stop_signals.h"

namespace gpulab {

Command declare_bench(CLI::App& gpulab) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = gpulab.add_subcommand("bench", "Time the reference against the hardware ceiling");
  cmd->add_option("lab", o->lab, "Lab id")->required();
  auto* part = cmd->add_option("--part", o->part, "Only this part (default: every part)");
  auto* runner =
      cmd->add_option("--runner", o->runner, "Bench this runner instead of the reference");
  auto* sweep = cmd->add_option(
      "--sweep", o->sweep,
      "Time the reference over one of lab.json's bench_sweeps (a handout's plot) instead");
  cmd->add_option("--json", o->json, "With --sweep: record it in this file")->needs(sweep);
  part->excludes(sweep);
  runner->excludes(sweep);
  return {cmd, [o] {
            stop_at_once_on_signals("bench", "removed the dataset being made");
            return bench(*o, std::cout);
          }};
}

}  // namespace gpulab
