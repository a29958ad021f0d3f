// The grader's side of the runner protocol (harness/runner_protocol.h): the command line of a
// run, and what a run left behind read back safely. gpulab grade runs runners through
// run_runner (sandboxed, with the CPU backend's report and the timed samples' hand-over);
// gpulab bench, which runs the trusted reference on the instructor's machine, builds the same
// command line and reads the same record.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset_store.h"
#include "data/sealed_outputs.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "lab/run_limit.h"
#include "os/process.h"
#include "run/run_channel.h"
#include "runner_protocol.h"
#include "sandbox/sandbox.h"
#include "timing.h"

namespace gpulab {

// What one runner process produced, as the grader received it over the run's channel
// (run_channel.h).
struct RunOutcome {
  bool ran = false;  // the runner exited RunnerExit::ok with its status
  bool no_gpu = false;
  bool timed_out = false;  // stopped by its time limit (run_limit.h)
  std::string message;     // why it did not run, for the student
  // What the run sent on the channel that gpulab's harness never does (run_channel.h): only the
  // run's own code can have sent it. "" for nothing.
  std::string channel_problem;
  ProcessResult process;  // the runner's process: its exit, times and output
  nlohmann::json result;  // the run's record (null without one), every field of its type
  // The outputs it handed over (never null), and its timed samples as the grader saw them.
  std::shared_ptr<const SealedOutputs> outputs = std::make_shared<SealedOutputs>();
  std::vector<SampleClock> samples;
  // The sim backend's findings (out of bounds, races, ...), one JSON object each.
  std::vector<nlohmann::json> sim_findings;
  // Its cost model's records, one per kernel (a run with `profile`); sim_costs.h reads them.
  std::vector<nlohmann::json> sim_costs;
};

// A run's command line: the runner, then the part and the dataset's input folder.
std::vector<std::string> runner_command(const std::string& runner, const std::string& part,
                                        const std::string& dataset);
// The arguments of a timed run of the student's function under `policy`.
std::vector<std::string> timing_arguments(const TimingPolicy& policy, const char* mode = kTimeFlag);

// The names a run of `part` may hand over, each in its turn (run_channel.h): each output, as a
// first, second (kRepeatPrefix) or timed ("timed_") call's, the run's own, or as sample k's
// (sample_output_prefix), sample k's.
OutputTurns output_names(const PartSpec& part, int samples);
// The same for a run whose sample k is a dataset of `sample_parts[k - 1]`.
OutputTurns output_names(const PartSpec& part, const std::vector<const PartSpec*>& sample_parts);

// Why a run failed that ended without a message of its own (a crash, a kill, a time limit).
std::string run_failure(const ProcessResult& p, const RunLimit& limit);

// A program the runner runs under (compute-sanitizer, sanitizer_runs.h): its command line before
// the runner's, and the folders it needs beside the system (read-only, at their own paths). It
// starts the runner as its child, so that run's sandbox lets processes start.
struct RunWrapper {
  std::vector<std::string> prefix;  // empty: no wrapper
  std::vector<std::filesystem::path> read_only;
};

// Where a grading's runs happen: the same for each of them.
struct RunPlace {
  const Sandbox& sandbox;
  const Paths& paths;
  Backend backend = Backend::cuda;
};

// One run of a runner on a dataset.
struct RunRequest {
  RunRequest(std::filesystem::path runner, const PartSpec& part, DatasetDirs dataset,
             std::filesystem::path out_dir, RunLimit limit)
      : runner(std::move(runner)),
        part(part),
        dataset(std::move(dataset)),
        out_dir(std::move(out_dir)),
        limit(std::move(limit)) {}

  std::filesystem::path runner;
  const PartSpec& part;
  DatasetDirs dataset;
  // Where the run's working folder is collected (a tool's log is read there, sanitizer_runs.h;
  // nothing else).
  std::filesystem::path out_dir;
  RunLimit limit;
  std::vector<std::string> flags;      // runner_flags.h's
  std::optional<TimingPolicy> timing;  // set: a timed run of the student's function under it
  std::vector<DatasetDirs> samples;    // a timed run's samples, handed over in turn
  // The samples are more correctness datasets of the part, each called as the first is,
  // untimed (harness/sample_protocol.h, kBatchFlag). `limit` is then each dataset's: its time on
  // the clock counts from that dataset's hand-over, and its CPU time is the whole run's budget.
  bool batch = false;
  // Under a tool only (runner_flags.h, kUnderToolFlag): each sample's part, where samples are
  // other parts' datasets (sample_protocol.h, kSamplePartsOption); empty: all are `part`'s.
  std::vector<const PartSpec*> sample_parts;
  RunWrapper wrapper;    // none: the runner alone
  bool profile = false;  // the CPU backend counts what its kernels would cost (sim_costs.h)
  // Set: the run is stopped once it is true (ProcessOptions::cancel), its outcome's process
  // `cancelled`.
  const std::atomic<bool>* cancel = nullptr;
};

// Runs the runner in its sandbox (run_sandbox: it sees itself, the dataset's input directory
// and its working folder, at the paths the sandbox gives them, staged under random names:
// Sandbox::stage_run), or as it is where the sandbox is off, with its channel.
RunOutcome run_runner(const RunPlace& place, const RunRequest& run);

// The median time of a timed run's record (its "timing", or a baseline's); -1 where none.
double timing_median(const nlohmann::json& result);
double timing_median(const RunOutcome& o);

}  // namespace gpulab
