#include "cli/shared_options.h"

#include "os/platform_time.h"
#include "os/time_budget.h"
#include "text/number_text.h"

namespace gpulab {

CLI::Option* add_backend_option(CLI::App* command, Backend& backend,
                                const std::string& default_said) {
  // Read as its name, checked against the list ("{cuda,sim}" in --help, which the completion
  // reads back: completion.cpp), then held as a Backend.
  return command
      ->add_option_function<std::string>(
          "--backend", [&backend](const std::string& name) { backend = *backend_named(name); },
          "cuda (a GPU) or sim (the CPU backend) (default: " + default_said + ")")
      ->check(CLI::IsMember(backend_names()));
}

namespace {

const char* const kHiddenSeedHelp =
    "The secret the hidden datasets are drawn from: any text, best long and random (openssl "
    "rand -hex 16) (default: $GPULAB_HIDDEN_SEED)";

}  // namespace

CLI::Option* add_hidden_seed_option(CLI::App* command, std::string& seed,
                                    const std::string& names) {
  return command->add_option(names, seed, kHiddenSeedHelp);
}

PolicyOptions add_grading_policy_options(CLI::App* command, GradingPolicy& policy,
                                         std::initializer_list<PolicyOption> taken,
                                         const std::string& backend_default_said) {
  PolicyOptions added;
  for (const PolicyOption option : taken) switch (option) {
      case PolicyOption::backend:
        added.backend = add_backend_option(
            command, policy.backend,
            backend_default_said.empty() ? backend_name(policy.backend) : backend_default_said);
        break;
      case PolicyOption::no_time:
        command->add_flag_callback(
            "--no-time", [&policy] { policy.performance = false; },
            "Correctness only: skip the timed runs");
        break;
      case PolicyOption::require_gpu:
        command->add_flag_callback(
            "--require-gpu", [&policy] { policy.require_gpu = true; },
            "cuda backend: without a usable GPU grade nothing, CPU parts neither (without it, "
            "selected GPU parts already leave such a grading unscored; grade-all on SLURM: each "
            "task's graders check)");
        break;
      case PolicyOption::allow_unsandboxed:
        command->add_flag_callback(
            "--allow-unsandboxed", [&policy] { policy.allow_unsandboxed = true; },
            "Grade even where student code cannot be sandboxed (no bubblewrap or user "
            "namespaces); otherwise that is refused");
        break;
      case PolicyOption::hidden_seed:
        added.hidden_seed = command->add_option_function<std::string>(
            "--hidden-seed", [&policy](const std::string& seed) { policy.hidden_seed = seed; },
            kHiddenSeedHelp);
        break;
    }
  return added;
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
