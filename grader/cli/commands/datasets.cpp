// gpulab datasets <lab>: a lab's datasets and expected outputs, written to a folder.
#include <iostream>

#include "cli/commands/commands.h"
#include "cli/datasets_command.h"
#include "cli/shared_options.h"
#include "files/secret.h"

namespace gpulab {

Command declare_datasets(CLI::App& gpulab) {
  struct Options {
    DatasetsOptions datasets;
    std::string seed;
    CLI::Option* seed_opt = nullptr;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd =
      gpulab.add_subcommand("datasets", "Generate a lab's datasets and expected outputs");
  cmd->add_option("lab", o->datasets.lab, "Lab id")->required();
  cmd->add_option("--out", o->datasets.out, "Directory")->required();
  o->seed_opt = add_hidden_seed_option(cmd, o->seed, "--hidden-seed,--seed");
  cmd->add_option("--group", o->datasets.group,
                  "Only this group (default: the public ones; timing: the large timed inputs)");
  return {cmd, [o] {
            if (o->seed_opt->count()) o->datasets.seed = hidden_secret(o->seed, std::cerr);
            return datasets_command(o->datasets, std::cout);
          }};
}

}  // namespace gpulab
