// The options several gpulab commands share, each declared here once: its name, its words in
// --help and its check. A command adds the ones it takes (cli/main.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "grade/grade.h"
#include "report/report_formats.h"

namespace gpulab {

// --backend: cuda or sim; `default_said` says what it is without the option.
CLI::Option* add_backend_option(CLI::App* command, std::string& backend,
                                const std::string& default_said);
// --hidden-seed: the instructor's secret the hidden datasets are drawn from (secret.h);
// `names` where a command takes another spelling too.
CLI::Option* add_hidden_seed_option(CLI::App* command, std::string& seed,
                                    const std::string& names = "--hidden-seed");
// --no-time: correctness only.
CLI::Option* add_no_time_flag(CLI::App* command, bool& no_time);
// --allow-unsandboxed: grade where student code cannot be sandboxed.
CLI::Option* add_allow_unsandboxed_flag(CLI::App* command, bool& allow);
// --format: one of report_formats.h's list, the format of --out's report.
void add_format_option(CLI::App* command, ReportOut& out);
// --time-budget, of grade and run alike (time_budget.h).
void add_time_budget_option(CLI::App* command, GradeOptions& o);
// --platform-timeout, of each course platform's package (platform_time.h).
void add_platform_timeout_option(CLI::App* command, double& timeout_s, const std::string& what);

}  // namespace gpulab
