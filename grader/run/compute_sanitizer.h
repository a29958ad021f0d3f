// NVIDIA's compute-sanitizer as gpulab uses it on a GPU (docs/GRADING.md, "compute-sanitizer"):
// where the tool is, the command line that runs a runner under one of its tools, and its text
// report read back as findings with the student's file and line, as the CPU backend's findings
// are (sim_findings_text.h). This module is pure: text in, findings out; sanitizer_runs.h runs
// it during grading.
//
// The report is read as the work of an adversary: the runner under the tool is the student's
// code, which can write to the tool's log (it sits in the run's own folder) and print lines
// that look like the tool's. It can add findings, which count only against itself; it cannot
// change the tool's exit status, so an error the tool counted fails the dataset even where the
// log was rewritten to hide it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "lab/sanitizer_tools.h"

namespace gpulab {

// The exit status the tool is told to give when it found an error (--error-exitcode): one that
// neither a runner (runner_protocol.h) nor a signal's 128 + n uses.
constexpr int kSanitizerErrorExit = 86;
// Errors the tool prints in full (--print-limit); it still counts the rest.
constexpr int kSanitizerPrintLimit = 50;
// What gpulab reads of a log: far above kSanitizerPrintLimit reports, with their lines.
constexpr size_t kSanitizerLogLimit = size_t{1} << 20;
// The log's name in the run's output folder (the command's working directory).
constexpr const char* kSanitizerLog = "compute-sanitizer.log";

// The compute-sanitizer to run: GPULAB_COMPUTE_SANITIZER where set (it must exist), else the
// one beside `nvcc` (the toolkit's bin/), else one on PATH, else /usr/local/cuda/bin's. Empty
// when none exists; `why` then says what to install.
std::filesystem::path find_compute_sanitizer(const std::filesystem::path& nvcc, std::string& why);

// The command that runs `runner_argv` under `tool`: the tool's errors make it exit with
// kSanitizerErrorExit, its report goes to kSanitizerLog in the working directory, without host
// backtraces (the student's kernels are what matter) nor CUDA API errors (a runner checks those
// itself and names the call).
std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer,
                                           const std::string& tool,
                                           const std::vector<std::string>& runner_argv);

struct SanitizerFinding {
  std::string tool;  // "memcheck", ...
  // What it is, in gpulab's words (the table in compute_sanitizer.cpp): "out-of-bounds read".
  std::string kind;
  std::string what;  // the tool's own first line: "Invalid __global__ read of size 1 bytes"
  // Where, as "file:line" with the path as the compiler saw it; a race has two.
  std::vector<std::string> where;
  std::string function;  // the device function it happened in, short ("load_items")
  bool fails = true;     // an error fails the dataset; a warning is shown only
  long count = 1;        // reports (threads, or a race's hazards) merged into this one
};

struct SanitizerReport {
  bool started = false;     // the tool's banner is there: it ran
  bool summarized = false;  // its closing summary is there: it ran to the end
  long errors = 0;          // the errors its summary counts (every one, printed or not)
  std::vector<SanitizerFinding> findings;  // distinct ones, in the order first reported
};

// The log as the tool wrote it (at most kSanitizerLogLimit of it is read) for `tool`.
SanitizerReport parse_sanitizer_log(std::string_view log, const std::string& tool);

// Whether the dataset fails: a failing finding, or errors the tool counted (its summary or its
// exit status, `exit_code`) though the log shows none that fails.
bool sanitizer_fails(const SanitizerReport& r, int exit_code);

// How one run under a tool ended, as the grader saw it from outside the sandbox.
struct ToolRunEnd {
  int exit_code = 0;  // the wrapped command's (the sandbox passes a killed child on as 128 + n)
  int signal = 0;     // the signal that ended it, where one did
  bool timed_out = false;     // stopped by gpulab's limit on the clock
  bool runner_spoke = false;  // the runner under the tool handed over an output or its record
};

// Why a run under the tool fails its dataset though no error of the tool's was counted, or ""
// where nothing does: the tool, or the run under it, was killed (the student's code can signal
// its parent); the log shows the tool's start but not its closing summary; or the log lacks the
// tool's start though the runner under it ran (the log sits in the run's own folder, which the
// student's code can write). A tool stopped by gpulab's own time limit is not the student's
// doing, and a tool that never started while the runner stayed silent is this machine's: both
// are notes, not failures.
std::string sanitizer_cut_short(const SanitizerReport& r, const ToolRunEnd& end);

// The findings in words for the student, at most a few, each with its count; file paths cut
// by the prefixes in `strip` (the submission's folder: segmented_scan.cu:83). Safe text.
std::string describe_sanitizer_findings(const std::vector<SanitizerFinding>& found,
                                        const std::vector<std::string>& strip);

}  // namespace gpulab
