// The grader's side of the runner protocol (harness/runner_protocol.h): the command line of a
// run, and what a run left behind read back safely. gpulab grade runs runners through
// run_runner (sandboxed, with the CPU backend's report and the timed samples' hand-over);
// gpulab bench, which runs the trusted reference on the instructor's machine, builds the same
// command line and reads the same record.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dataset_store.h"
#include "lab_config.h"
#include "paths.h"
#include "process.h"
#include "run_limit.h"
#include "runner_protocol.h"
#include "sandbox.h"
#include "timing.h"

namespace gpulab {

// What one runner process produced, read back by the grader.
struct RunOutcome {
  bool ran = false;  // the runner exited RunnerExit::ok with its status
  bool no_gpu = false;
  bool timed_out = false;  // stopped by its time limit (run_limit.h)
  std::string message;     // why it did not run, for the student
  ProcessResult process;   // the runner's process: its exit, times and output
  nlohmann::json result;   // the runner's result.json
  // The sim backend's findings (out of bounds, races, ...), one JSON object each.
  std::vector<nlohmann::json> sim_findings;
};

// A run's command line: the runner, then the part, the dataset's input folder and the output
// folder.
std::vector<std::string> runner_command(const std::string& runner, const std::string& part,
                                        const std::string& dataset, const std::string& out);
// The arguments of a timed run of the student's function under `policy`.
std::vector<std::string> timing_arguments(const TimingPolicy& policy, const char* mode = kTimeFlag);

// The record (result.json) a run left in `out_dir`, read as run_output.h reads a run's files;
// null where there is none that parses. Its text fields "status" and "message" are dropped
// where they are not strings, as is "count" where it is not an integer.
nlohmann::json read_result(const std::filesystem::path& out_dir);

// Why a run failed that ended without a message of its own (a crash, a kill, a time limit).
std::string run_failure(const ProcessResult& p, const RunLimit& limit);

// A program the runner runs under (compute-sanitizer, sanitizer_runs.h): its command line before
// the runner's, and the folders it needs beside the system (read-only, at their own paths). It
// starts the runner as its child, so that run's sandbox lets processes start.
struct RunWrapper {
  std::vector<std::string> prefix;  // empty: no wrapper
  std::vector<std::filesystem::path> read_only;
};

// Runs the runner in its sandbox (run_sandbox: it sees itself, the dataset's input directory
// and its output folder, at the paths the sandbox gives them, staged under random names:
// Sandbox::stage_run), or as it is where the sandbox is off. Its output folder is then at
// `collected_out_dir`, where the caller reads it.
RunOutcome run_runner(const Sandbox& sandbox, const Paths& paths,
                      const std::filesystem::path& runner, const std::string& backend,
                      const PartSpec& part, const DatasetDirs& ds,
                      const std::filesystem::path& collected_out_dir, bool time,
                      const TimingPolicy& timing, const RunLimit& limit,
                      const std::vector<std::string>& flags = {},
                      const std::vector<DatasetDirs>& samples = {}, const RunWrapper& wrapper = {});

// The median time of a timed run's record (its "timing", or a baseline's); -1 where none.
double timing_median(const nlohmann::json& result);
double timing_median(const RunOutcome& o);

}  // namespace gpulab
