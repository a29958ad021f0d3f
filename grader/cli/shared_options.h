// The options several gpulab commands share, each declared here once: its name, its words in
// --help and its check. A command adds the ones it takes (cli/main.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <initializer_list>
#include <string>

#include "core/grading_policy.h"
#include "grade/grade.h"
#include "report/report_formats.h"

namespace gpulab {

// --backend: cuda or sim; `default_said` says what it is without the option.
CLI::Option* add_backend_option(CLI::App* command, Backend& backend,
                                const std::string& default_said);
// --hidden-seed: the instructor's secret the hidden datasets are drawn from (secret.h);
// `names` where a command takes another spelling too.
CLI::Option* add_hidden_seed_option(CLI::App* command, std::string& seed,
                                    const std::string& names = "--hidden-seed");

// A grading policy's options (core/grading_policy.h), each declared here once: --backend,
// --no-time, --require-gpu, --allow-unsandboxed, --hidden-seed. A command takes those it lists,
// written straight into `policy` as they are parsed, so `gpulab grade` reads back exactly what
// grade_arguments writes (tests/unit/grading_policy_test.cpp).
enum class PolicyOption { backend, no_time, require_gpu, allow_unsandboxed, hidden_seed };
struct PolicyOptions {
  CLI::Option* backend = nullptr;      // set where taken: run asks whether it was given
  CLI::Option* hidden_seed = nullptr;  // grade's --hidden-seed-file excludes it
};
// `backend_default_said`, where not empty, says what the backend is without --backend (else the
// policy's backend as it is now).
PolicyOptions add_grading_policy_options(CLI::App* command, GradingPolicy& policy,
                                         std::initializer_list<PolicyOption> taken,
                                         const std::string& backend_default_said = "");

// --format: one of report_formats.h's list, the format of --out's report.
void add_format_option(CLI::App* command, ReportOut& out);
// --time-budget, of grade and run alike (time_budget.h).
void add_time_budget_option(CLI::App* command, GradeOptions& o);
// --platform-timeout, of each course platform's package (platform_time.h).
void add_platform_timeout_option(CLI::App* command, double& timeout_s, const std::string& what);

}  // namespace gpulab
