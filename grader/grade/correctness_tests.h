// The correctness tests of one part: the student's runner on every dataset of each correctness
// group that runs here (grade_scope.h), each under its time limit, its outputs checked against
// the oracle's; one test per group, all its points when every dataset passes. The part's first
// dataset runs in a process of its own, the rest of each group in one process
// (correctness_batch.h), and any dataset that process does not settle alone again. On one public
// dataset the function is called twice in one process.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/report.h"
#include "core/report_builder.h"
#include "data/check.h"
#include "grade/grade_context.h"
#include "grade/runner_builds.h"
#include "grade/sanitizer_runs.h"
#include "run/runner_client.h"

namespace gpulab {

class CorrectnessTests {
 public:
  CorrectnessTests(const GradeContext& c, RunnerBuilds& runners, ReportBuilder& out)
      : c_(c), runners_(runners), out_(out) {}

  // Adds the part's correctness tests (and its rows of the per-dataset table); returns whether
  // every public dataset passed, which timed points need.
  bool grade(const PartSpec& part);

 private:
  // What a part's correctness tests carry from group to group.
  struct PartState {
    const DatasetSpec* called_twice = nullptr;  // the dataset whose function is called twice
    bool timed_out = false;                     // a run hung: no other runs (one hang is enough)
    std::string hung_on;     // "the dataset X", or "a hidden dataset", whose run hung
    std::string leaked_on;   // the dataset where a second call went wrong
    bool first_ran = false;  // the part's first dataset ran, in a process of its own
    bool mapped = false;     // a map of where an output is wrong was drawn: one a part is enough
    // By group: what its datasets' run in one process sent that gpulab's harness never does
    // (RunOutcome::channel_problem); each of them then ran alone.
    std::map<std::string, std::string> batch_spoke;
  };
  // One dataset of a group: how its run and check went.
  struct DatasetRun {
    const DatasetSpec* ds = nullptr;
    bool skipped = false;  // not run: another dataset hung (PartState::hung_on)
    DatasetDirs d;
    bool made = false;               // d is ready
    std::vector<std::string> flags;  // the runner's, for this dataset
    RunOutcome o;
    CheckResult c;
    bool bug_found = false;  // a CPU backend finding that fails the dataset
    std::string left;        // a failed run's wrong outputs, as its kernels left them
    int job = -1;            // its place among the tools' verdicts (one per process), or none
    std::string map_note;    // where the map of where it is wrong is (error_map_files.h)
    bool settled = false;    // its run and check are done
    // Its check in a batch (correctness_batch.h) that it failed there; it then ran alone.
    std::optional<CheckResult> wrong_in_batch;
    // The CPU backend's findings made by its call in a batch; those that fail a dataset fail it
    // where its run alone found none (found_only_in_batch).
    std::vector<nlohmann::json> found_in_batch;
    bool found_only_in_batch = false;
  };

  std::vector<DatasetRun> run_group(const PartSpec& part, const GroupSpec& g,
                                    const std::vector<const DatasetSpec*>& sets, PartState& state,
                                    std::vector<SanitizerRuns::Verdict>& verdicts);
  void start_tools(const PartSpec& part, std::vector<DatasetRun>& runs,
                   const std::vector<size_t>& order, const std::vector<bool>& picked,
                   SanitizerRuns::Batch& tools);
  void within_share(const GroupSpec& g, DatasetRun& r, const std::function<void()>& work);
  void run_dataset(const PartSpec& part, const GroupSpec& g, DatasetRun& r,
                   SanitizerRuns::Batch* tools, std::vector<DatasetRun>& runs, PartState& state);
  std::vector<size_t> run_batch(const PartSpec& part, const GroupSpec& g,
                                std::vector<DatasetRun>& runs, const std::vector<size_t>& batch,
                                PartState& state);
  void judge(const PartSpec& part, const GroupSpec& g, DatasetRun& r, PartState& state,
             std::optional<CheckResult> checked = std::nullopt);
  RunLimit limit_on(const PartSpec& part, const DatasetDirs& d,
                    const std::vector<std::string>& flags,
                    std::optional<double> reference_cpu_s = std::nullopt);
  size_t score_group(const PartSpec& part, const GroupSpec& g, double points,
                     const std::vector<DatasetRun>& runs,
                     const std::vector<SanitizerRuns::Verdict>& verdicts, const PartState& state);
  std::string dataset_line(const DatasetRun& r, const SanitizerRuns::Verdict& tools,
                           DatasetRow& row, std::vector<SimFindingSite>& sites) const;
  RunOutcome correctness_run(const PartSpec& part, const DatasetDirs& d,
                             const std::filesystem::path& out,
                             const std::vector<std::string>& flags);
  std::optional<double> kept_reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                                             const std::vector<std::string>& flags);
  double reference_cpu_s(const PartSpec& part, const DatasetDirs& d,
                         const std::vector<std::string>& flags);
  void fail_for_state_leak(const std::vector<size_t>& tests, const std::string& dataset);

  const GradeContext& c_;
  RunnerBuilds& runners_;
  ReportBuilder& out_;
};

}  // namespace gpulab
