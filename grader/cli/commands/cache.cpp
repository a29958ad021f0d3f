// gpulab cache: the dataset cache's size, or cleared (cli/cache_command.h).
#include <iostream>

#include "cli/cache_command.h"
#include "cli/commands/commands.h"

namespace gpulab {

Command declare_cache(CLI::App& gpulab) {
  struct Options {
    bool clear = false;
    std::string lab;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = gpulab.add_subcommand("cache", "Show the dataset cache, or clear it");
  cmd->add_flag("--clear", o->clear, "Remove the cached datasets");
  cmd->add_option("--lab", o->lab, "With --clear: only this lab's");
  return {cmd, [o] { return cache_command(o->clear, o->lab, std::cout); }};
}

}  // namespace gpulab
