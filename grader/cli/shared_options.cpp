#include "cli/shared_options.h"

#include "lab/backend_names.h"
#include "os/platform_time.h"
#include "os/time_budget.h"
#include "text/number_text.h"

namespace gpulab {

CLI::Option* add_backend_option(CLI::App* command, std::string& backend,
                                const std::string& default_said) {
  return command
      ->add_option("--backend", backend,
                   "cuda (a GPU) or sim (the CPU backend) (default: " + default_said + ")")
      ->check(CLI::IsMember(backend_names()));
}

CLI::Option* add_hidden_seed_option(CLI::App* command, std::string& seed,
                                    const std::string& names) {
  return command->add_option(
      names, seed,
      "The secret the hidden datasets are drawn from: any text, best long and random (openssl "
      "rand -hex 16) (default: $GPULAB_HIDDEN_SEED)");
}

CLI::Option* add_no_time_flag(CLI::App* command, bool& no_time) {
  return command->add_flag("--no-time", no_time, "Correctness only: skip the timed runs");
}

CLI::Option* add_allow_unsandboxed_flag(CLI::App* command, bool& allow) {
  return command->add_flag("--allow-unsandboxed", allow,
                           "Grade even where student code cannot be sandboxed (no bubblewrap or "
                           "user namespaces); otherwise that is refused");
}

void add_format_option(CLI::App* command, ReportOut& out) {
  command
      ->add_option_function<std::string>(
          "--format", [&out](const std::string& name) { out.format = *format_named(name); },
          "The report's format (default: gradescope):\n" + formats_help())
      ->check(CLI::IsMember(format_names()));
}

void add_time_budget_option(CLI::App* command, GradeOptions& o) {
  command
      ->add_option_function<double>(
          "--time-budget", [&o](double s) { o.time_budget_s = s; },
          "Seconds the whole grading may take, its build included: each part gets an equal share "
          "of what is left (what one leaves goes to the later ones); a part whose share runs "
          "out, or that the budget does not reach, is reported \"not graded: time budget\", "
          "and the report is written within the budget. The course platforms' packages pass "
          "their time limit less a margin (docs/GRADING.md, \"The time budget\") (default: "
          "none)")
      ->check(CLI::Range(kMinTimeBudgetS, kMaxTimeBudgetS));
}

void add_platform_timeout_option(CLI::App* command, double& timeout_s, const std::string& what) {
  command
      ->add_option("--platform-timeout", timeout_s,
                   what + ", in seconds (default: " + printf_text("%g", timeout_s) +
                       "): the platform stops a grading then, so gpulab grades within it less a "
                       "margin (--time-budget; docs/GRADING.md, \"The time budget\")")
      ->check(CLI::Range(kMinPlatformTimeoutS, kMaxPlatformTimeoutS));
}

}  // namespace gpulab
