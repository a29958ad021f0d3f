// gpulab time <lab>: the student's code timed against the reference's, as grading times it.
#include <iostream>

#include "cli/commands/commands.h"
#include "cli/shared_options.h"
#include "cli/time_command.h"
#include "os/stop_signals.h"

namespace gpulab {

Command declare_time(CLI::App& gpulab) {
  auto o = std::make_shared<TimeOptions>();
  o->cuda_runners_built = kCudaRunnersBuilt;
  CLI::App* cmd = gpulab.add_subcommand(
      "time", "Time your code against the reference's on any part and dataset, as grading does");
  cmd->add_option("lab", o->lab, "Lab id")->required();
  cmd->add_option("--part", o->parts, "Only these parts (default: every part)");
  cmd->add_option("--dataset", o->dataset,
                  "This dataset (default: the timing ones; the cost model on sim: lab.json's "
                  "cost_dataset, else each part's last public one)");
  cmd->add_option("--submission", o->submission,
                  "A folder, or a variant of your lab file (default: labs/<lab>)");
  auto backend = std::make_shared<Backend>(kBuiltBackend);
  CLI::Option* given = add_backend_option(
      cmd, *backend,
      std::string(backend_name(kBuiltBackend)) +
          "; sim times CPU parts and counts what GPU parts' kernels would cost a GPU");
  return {cmd, [o, backend, given] {
            if (given->count() > 0) o->backend = *backend;
            stop_at_once_on_signals("time", "removed the dataset being made");
            return time_command(*o, std::cout, std::cerr);
          }};
}

}  // namespace gpulab
