// gpulab dist: the student kit (package/student_kit.h).
#include <iostream>

#include "cli/commands/commands.h"
#include "package/student_kit.h"

namespace gpulab {

Command declare_dist(CLI::App& gpulab) {
  struct Options {
    std::string out;
    ClassroomOptions classroom;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = gpulab.add_subcommand(
      "dist", "The student kit: labs, harness, CPU backend, datasets, handouts; no reference");
  cmd->add_option("--out", o->out, "The .tar.gz to write (student-kit.tar.gz)")->required();
  auto* classroom = cmd->add_flag(
      "--github-classroom", o->classroom.workflow,
      "Add .github/workflows/classroom.yml: GitHub Classroom's autograding on each push (sim)");
  cmd->add_option("--lab", o->classroom.labs, "The labs its workflow grades (default: all)")
      ->needs(classroom);
  return {cmd, [o] { return make_student_kit(o->out, o->classroom, std::cout); }};
}

}  // namespace gpulab
