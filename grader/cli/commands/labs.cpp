// gpulab labs: each lab, its title and parts; --update-readme rewrites the README's table of
// labs from their lab.json (core/rubric.h).
#include <iostream>

#include "cli/commands/commands.h"
#include "cli/commands/generated_block.h"
#include "core/rubric.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"

namespace gpulab {

namespace {

int update_readme() {
  std::vector<LabConfig> labs;
  for (const auto& file : find_lab_files(Paths::current().source))
    labs.push_back(LabConfig::load(file));
  return rewrite_generated_block(
      Paths::current().source / "README.md",
      [&](std::string& text) { return replace_labs_block(text, labs); },
      std::string("lab table markers (") + kLabsBegin + ")");
}

int list_labs() {
  for (const auto& file : find_lab_files(Paths::current().source)) {
    try {
      const LabConfig lab = LabConfig::load(file);
      std::cout << lab.id << "  " << lab.title << "\n    parts:";
      for (const auto& p : lab.parts) std::cout << " " << p.name << (p.gpu ? " (GPU)" : " (CPU)");
      std::cout << "\n";
    } catch (const LabConfigError& e) {
      std::cout << file.parent_path().filename().string() << "  BROKEN: " << e.what() << "\n";
    }
  }
  return kExitOk;
}

}  // namespace

Command declare_labs(CLI::App& gpulab) {
  auto update = std::make_shared<bool>(false);
  CLI::App* cmd = gpulab.add_subcommand("labs", "List the labs");
  cmd->add_flag("--update-readme", *update,
                "Rewrite the README's table of labs from their lab.json");
  return {cmd, [update] { return *update ? update_readme() : list_labs(); }};
}

}  // namespace gpulab
