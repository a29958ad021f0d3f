// What the end-to-end suites share: grading a submission with the real gpulab binary, and
// reading the report back.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "os/process.h"

namespace e2e {

namespace fs = std::filesystem;
using nlohmann::json;

inline const fs::path kSource = GPULAB_TEST_SOURCE_DIR;

struct Graded {
  json report;
  gpulab::ProcessResult process;
};

// A fresh directory per name and process: ctest runs the suites in parallel. They are removed
// when the process's tests pass (remove_scratch), and kept, for a look, when one fails.
fs::path scratch(const std::string& name);

// Removes every scratch directory of this process; returns how many.
int remove_scratch();

// A source tree of gpulab's for a test to change (GPULAB_SOURCE_DIR points gpulab at it): the
// scratch folder `name` holding copies of labs/<lab> and reference/<lab>. Returns its root;
// lab.json is at <root>/labs/<lab>/lab.json.
fs::path lab_source_copy(const std::string& name, const std::string& lab);

// Runs `argv` in `cwd`, `env` (NAME=VALUE entries) added to the environment, its output (up to
// 1 MiB) kept.
gpulab::ProcessResult run_command(std::vector<std::string> argv, const fs::path& cwd,
                                  std::vector<std::string> env = {}, double timeout_s = 1500);

// One command for run_commands: run_command's arguments.
struct Command {
  std::vector<std::string> argv;
  fs::path cwd;
  std::vector<std::string> env = {};
  double timeout_s = 1500;
};

// Runs `commands` as many at a time as the machine has cores and returns their results in their
// order. CI's machine has two and ctest runs one suite at a time there, so a suite whose commands
// each keep one core busy (a compiler, a CPU-backend run) leaves the other idle when it runs them
// one by one. Only for commands that share nothing but what gpulab locks (the dataset cache),
// and never for one that measures speed: that runs alone (run_command).
std::vector<gpulab::ProcessResult> run_commands(const std::vector<Command>& commands);

// Gradescope's autograder folder made from the package `zip` at `root` (Gradescope's
// /autograder): the zip unpacked into source/ (setup.sh and run_autograder at its root), and
// empty results/ and submission/. Returns unzip's result.
gpulab::ProcessResult unpack_gradescope(const fs::path& zip, const fs::path& root);

// Whether a process's output holds `text`.
bool said(const gpulab::ProcessResult& p, const std::string& text);

// A file's bytes; empty where it cannot be read.
std::string read_text(const fs::path& file);

// A report gpulab wrote, in any format (report_formats.h), parsed. Every e2e test reads its
// reports through here: a copy of each is kept in reports_read_folder(), which e2e_main checks
// against the formats' schemas once the tests ran (tests/report_schema/check_reports.py).
json read_report(const fs::path& file);
// This process's folder of the reports read.
fs::path reports_read_folder();

// The hidden seed these suites grade with (short, so gpulab warns that it is guessable).
inline const std::string kHiddenSeed = "7";

// `gpulab grade <lab> --submission <submission> --hidden-seed kHiddenSeed <extra>`; the report
// must exist.
// `env`: NAME=VALUE entries for gpulab's environment (GPULAB_SOURCE_DIR, say).
Graded grade(const std::string& lab, const fs::path& submission, std::vector<std::string> extra,
             double timeout_s = 900, std::vector<std::string> env = {});
// The same, with the report written to `report` and gpulab run in its directory.
Graded grade_to(const fs::path& report, const std::string& lab, const fs::path& submission,
                std::vector<std::string> extra, double timeout_s = 900,
                std::vector<std::string> env = {});

// The processes this test process adopted (orphans of the grader's children; the caller made
// itself a subreaper, PR_SET_CHILD_SUBREAPER) that still run, each described; they are killed
// and reaped. Those the grader just killed get a moment to end.
std::vector<std::string> leftover_processes();

// A copy of the test whose name starts with `prefix` (exactly one must).
json test_named(const json& report, const std::string& prefix);

// Markdown text (Gradescope's outputs, grader/text/markdown_text.h) as plain text: the escaping
// backslashes dropped, so a test looks for the words a student reads. Text that is not
// markdown passes through unchanged, but for a backslash before punctuation.
std::string plain_text(const std::string& markdown);
// Whether a test's output (plain_text) holds `text`.
bool contains(const json& t, const std::string& text);
// Whether a report's own output, above the tests (plain_text), holds `text`: the information
// lines, not tests, that Gradescope's report lists under "Not graded here".
bool output_says(const json& report, const std::string& text);
double score(const json& report);
double max_score(const json& report);

// Every correctness test of `part` (public and hidden) scores its full, non-zero points.
void check_full_correctness(const json& report, const std::string& part);

}  // namespace e2e
