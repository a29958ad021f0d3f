// gpulab figures <lab>: the handout's figures (figures/).
#include <iostream>

#include "cli/commands/commands.h"
#include "figures/figures_command.h"

namespace gpulab {

Command declare_figures(CLI::App& gpulab) {
  auto o = std::make_shared<FiguresOptions>();
  CLI::App* cmd = gpulab.add_subcommand(
      "figures", "Draw a lab's handout figures from its datasets and gpulab's own code");
  cmd->add_option("lab", o->lab, "Lab id")->required();
  cmd->add_option("--out", o->out,
                  "Directory (default: handouts/figures/<lab>/ of the gpulab tree)");
  return {cmd, [o] { return figures_command(*o, std::cout); }};
}

}  // namespace gpulab
