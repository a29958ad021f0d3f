// gpulab completion <shell>: the shell completion script (cli/completion.h).
#include "cli/completion.h"

#include <iostream>

#include "cli/commands/commands.h"
#include "os/exit_status.h"

namespace gpulab {

Command declare_completion(CLI::App& gpulab) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = gpulab.add_subcommand(
      "completion",
      "Print a shell completion script: source <(gpulab completion bash), or zsh's in ~/.zshrc");
  cmd->add_option("shell", *shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  return {cmd, [shell] {
            std::cout << completion_script(*shell);
            return kExitOk;
          }};
}

}  // namespace gpulab
