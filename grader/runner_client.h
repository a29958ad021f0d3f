// The grader's side of the runner protocol (harness/runner_protocol.h): the command line of a
// run, and what a run left behind read back safely. gpulab grade runs runners through
// run_runner (sandboxed, with the CPU backend's report and the timed samples' hand-over);
// gpulab bench, which runs the trusted reference on the instructor's machine, builds the same
// command line and reads the same record.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "dataset_store.h"
#include "lab_config.h"
#include "paths.h"
#include "process.h"
#include "run_channel.h"
#include "run_limit.h"
#include "runner_protocol.h"
#include "sandbox.h"
#include "sealed_outputs.h"
#include "timing.h"

namespace gpulab {

// What one runner process produced, as the grader received it over the run's channel
// (run_channel.h).
struct RunOutcome {
  bool ran = false;  // the runner exited RunnerExit::ok with its status
  bool no_gpu = false;
  bool timed_out = false;  // stopped by its time limit (run_limit.h)
  std::string message;     // why it did not run, for the student
  ProcessResult process;   // the runner's process: its exit, times and output
  nlohmann::json result;   // the run's record (null without one), every field of its type
  // The outputs it handed over (never null), and its timed samples as the grader saw them.
  std::shared_ptr<const SealedOutputs> outputs = std::make_shared<SealedOutputs>();
  std::vector<SampleClock> samples;
  // The sim backend's findings (out of bounds, races, ...), one JSON object each.
  std::vector<nlohmann::json> sim_findings;
};

// A run's command line: the runner, then the part and the dataset's input folder.
std::vector<std::string> runner_command(const std::string& runner, const std::string& part,
                                        const std::string& dataset);
// The arguments of a timed run of the student's function under `policy`.
std::vector<std::string> timing_arguments(const TimingPolicy& policy, const char* mode = kTimeFlag);

// The names a run of `part` may hand over: each output, as a first, second (kRepeatPrefix),
// timed ("timed_") or sample's (sample_output_prefix) output.
std::set<std::string> output_names(const PartSpec& part, int samples);

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
// and its working folder, at the paths the sandbox gives them, staged under random names:
// Sandbox::stage_run), or as it is where the sandbox is off, with its channel. Its working folder
// is then at `collected_out_dir` (a tool's log is read there, sanitizer_runs.h; nothing else).
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
