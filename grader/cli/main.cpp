// gpulab: the command line for students (run, time), instructors (grade, grade-all, package,
// dist, datasets, rubric, figures) and developers (bench, bench-grader). Each command lives in a
// file of its own (cli/commands/); this file declares them on one app and runs the one given.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands/commands.h"
#include "cli/completion.h"
#include "files/paths.h"
#include "files/secret.h"
#include "os/environment_help.h"
#include "os/exit_status.h"
#include "os/stop_signals.h"

int main(int argc, char** argv) {
  using namespace gpulab;
  if (argc >= 2 && std::string(argv[1]) == "sim-cc") return sim_cc_main(argc, argv);
  CLI::App app{"gpulab: CUDA labs with an autograder"};
  app.set_version_flag("--version", std::string("gpulab ") + GPULAB_VERSION);
  app.footer(environment_help());
  app.require_subcommand(1);
  const std::vector<Command> commands = {
#define GPULAB_DECLARE_ON_APP(name) declare_##name(app),
      GPULAB_COMMANDS(GPULAB_DECLARE_ON_APP)
#undef GPULAB_DECLARE_ON_APP
  };

  // The completion script's question, answered from this very command line (completion.h): so
  // it stays right before the parse, after every subcommand and option.
  if (argc >= 2 && std::string(argv[1]) == "__complete") {
    complete_words(app, std::vector<std::string>(argv + 2, argv + argc), Paths::current().source,
                   std::cout);
    return kExitOk;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here too, with status 0; a command line not understood gets
    // gpulab's own status, not CLI11's.
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  hide_secret_arguments(argc, argv);  // from /proc/<pid>/cmdline, which every user can read
  try {
    for (const Command& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const std::exception& e) {
    std::cerr << "gpulab: " << e.what() << "\n";
    return kExitFailed;
  } catch (const Stopped& s) {
    std::cerr << "gpulab: stopped by " << signal_name(s.signal) << "\n";
    return kExitStopped;
  }
  return kExitOk;
}
