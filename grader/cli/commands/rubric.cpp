// gpulab rubric <lab>: the lab's rubric as Markdown, or rewritten into its handout's block.
#include "core/rubric.h"

#include <iostream>

#include "cli/commands/commands.h"
#include "cli/commands/generated_block.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/exit_status.h"

namespace gpulab {

namespace {

int rubric(const std::string& id, bool update) {
  const LabConfig lab = LabConfig::load_id(Paths::current().source, id);
  if (!update) {
    std::cout << rubric_markdown(lab);
    return kExitOk;
  }
  return rewrite_generated_block(
      Paths::current().source / "handouts" / (id + ".md"),
      [&](std::string& text) { return replace_rubric_block(text, lab); }, "rubric markers");
}

}  // namespace

Command declare_rubric(CLI::App& gpulab) {
  struct Options {
    std::string lab;
    bool update = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = gpulab.add_subcommand("rubric", "Print a lab's rubric as Markdown");
  cmd->add_option("lab", o->lab, "Lab id")->required();
  cmd->add_flag("--update-handout", o->update, "Rewrite the handout's rubric block");
  return {cmd, [o] { return rubric(o->lab, o->update); }};
}

}  // namespace gpulab
