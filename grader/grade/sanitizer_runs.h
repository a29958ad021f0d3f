// compute-sanitizer during grading (compute_sanitizer.h; docs/GRADING.md, "compute-sanitizer on
// a GPU"): on a GPU, every `gpulab grade` runs the smallest public datasets of each GPU part once
// more under memcheck and initcheck (racecheck and synccheck too where the student's files use
// shared memory; lab.json's "sanitize" may name the tools and the number of datasets), and
// `gpulab run --sanitize` every public dataset under every tool. For grade, one process per
// tool runs every part's picked datasets (grading_runs_for), beside the first GPU part's
// correctness runs; only where it finds something do the groups' datasets run under the tools
// again, a process per group and tool, to say which part it was. For run --sanitize, the runs
// under the tools go beside the group's correctness runs (Batch). The runner is the graded one
// (every CUDA build carries line information: runner_recipe.h, kLineInfoFlag), and a finding
// that is an error fails the dataset, as the CPU backend's do. Where there is no GPU or no
// compute-sanitizer, grade says so in a note and fails no one; `run --sanitize` without the tool
// is an error naming what to install.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/report_builder.h"
#include "grade/grade_context.h"
#include "os/background_work.h"
#include "run/compute_sanitizer.h"

namespace gpulab {

class SanitizerRuns {
 public:
  // What this grading runs under compute-sanitizer: null where nothing (not asked for, or it
  // cannot here: then a note in `out` says why). Throws where `run --sanitize` asked for it
  // and the tool is missing.
  static std::shared_ptr<SanitizerRuns> for_grading(const GradeContext& c, ReportBuilder& out);

  // Whether datasets of group `g` of `part` run under the tools: the public datasets of a GPU
  // part, not its timing ones.
  bool applies(const PartSpec& part, const GroupSpec& g) const;
  // Which of those datasets (their input folders, grader-made, in lab.json's order) run under
  // the tools, indices in order: for run --sanitize all of them; for grade the lab's
  // `sanitize_datasets` smallest by input bytes (the tools slow kernels down tens of times, and
  // an access past an edge shows on a small input as on a large one), ties kept in order.
  std::vector<size_t> pick(const std::vector<std::filesystem::path>& inputs) const;

  struct Verdict {
    bool fails = false;
    bool cut_short = false;  // a tool was killed or its log lost (sanitizer_cut_short)
    std::vector<SanitizerFinding> findings;  // every tool's
    std::string notes;  // what else the student should know, lines starting "\n  "
    // The datasets that ran in the tools' processes, in order: the verdict is theirs together.
    std::vector<std::string> datasets;
    bool cancelled = false;  // a tool's run was stopped: the verdict says nothing of it
    // Whether it holds nothing at all to tell: every tool ran to its end and found nothing.
    bool clean() const {
      return !fails && !cut_short && !cancelled && findings.empty() && notes.empty();
    }
  };
  // A dataset of `part` to run under the tools, with its correctness run's `flags`.
  struct Job {
    const PartSpec* part = nullptr;
    DatasetDirs d;
    std::vector<std::string> flags;
  };

  // One group's runs under the tools, started (start) before the group's correctness runs and
  // going on in the background beside them, as many processes at once as the machine has
  // cores. Nothing under the tools is timed. What they cost is mostly each process's start
  // under a tool, which other processes on the GPU wait for (docs/PERF.md, "compute-sanitizer
  // in every grade"): so for grade one process per tool runs all the group's picked datasets
  // in turn, the first as its own dataset and the others handed over after it as samples
  // (harness/sample_protocol.h), and its verdict is theirs together; for run --sanitize, whose
  // student wants to know which dataset, each dataset has processes of its own.
  class Batch {
   public:
    // `grading`: the grading's runs (grading_runs_for), under a shorter limit.
    explicit Batch(SanitizerRuns& runs, bool grading = false) : s_(runs), grading_(grading) {}
    // Runs `jobs` under each tool; each job's place among verdicts().
    std::vector<size_t> start(const std::vector<Job>& jobs);
    // Stops the runs of verdict `v` (a dataset in them hung, or will not run): it says nothing
    // of them, and fails nothing.
    void cancel(size_t v);
    // The runs of verdict `v` once more, from the start (they were stopped for a rerun alone);
    // the new verdict's place.
    size_t again(size_t v);
    // Whether a run under a tool has not ended yet: a correctness run that timed out beside one
    // runs again alone (correctness_tests.cpp), once settle() has waited for them.
    bool busy() const { return work_.busy(); }
    void settle() { work_.settle(); }
    // Every verdict, in the order started, once all have ended.
    std::vector<Verdict> verdicts();
    // Whether a job of `part`'s group `group` is among those started.
    bool covers(const PartSpec& part, const std::string& group) const;

   private:
    struct ToolRun {
      RunOutcome o;
      SanitizerReport r;
    };
    struct Started {
      std::vector<Job> jobs;      // in the order the processes run them
      std::vector<ToolRun> runs;  // one per tool
      std::atomic<bool> cancelled{false};
    };
    // One process per tool for `jobs` together (the first job's part and dataset, the others
    // as samples); its verdict's place.
    size_t start_together(std::vector<Job> jobs);
    Verdict verdict(const Started& started) const;
    RunLimit limit() const;

    SanitizerRuns& s_;
    bool grading_;
    std::deque<Started> started_;  // deque: they stay where they are while their runs write them
    BackgroundWork work_;          // last: it waits for its tasks before the rest goes
  };

  SanitizerRuns(const GradeContext& c, std::filesystem::path tool, std::vector<std::string> tools,
                bool asked)
      : c_(c), tool_(std::move(tool)), tools_(std::move(tools)), asked_(asked) {}

  // For grade (not run --sanitize): the grading's runs under the tools, if they cover `part`'s
  // group `g`; null where they do not. The first call starts them: every picked dataset of
  // `part` and of the parts after it that the grading runs, one process per tool for them all,
  // in the background (docs/PERF.md, "What the tools add, lab by lab": each process under a
  // tool costs about 0.2 s that the GPU's other processes wait for). Where a dataset cannot be
  // made, there are none, and each group runs its own.
  Batch* grading_runs_for(const PartSpec& part, const GroupSpec& g);
  Batch* grading_runs() { return grading_ ? &*grading_ : nullptr; }
  // The grading's runs' verdict, waited for once (clean where none have started, and not kept,
  // since a later part may start them): clean, or what each group must run again under the
  // tools alone to tell. They are on a short limit (a hang
  // under a tool should not hold the grading), past which they are not clean either.
  const Verdict& grading_verdict();

 private:
  void start_for_grading(const PartSpec& from);

  const GradeContext& c_;
  std::filesystem::path tool_;
  std::vector<std::string> tools_;
  bool asked_;  // by gpulab run --sanitize, not by grade
  bool grading_tried_ = false;
  std::optional<Verdict> grading_verdict_;
  std::optional<Batch> grading_;  // last: its runs end (its destructor waits) before the rest
};

// The tools a grade runs: lab.json's "sanitize.tools" where it names them; else memcheck and
// initcheck, and racecheck and synccheck where a student file of `submission` spells
// __shared__ (the hazards those two find live in shared memory and barriers; a file that hides
// the word still gets the first two).
std::vector<std::string> grade_sanitizer_tools(const LabConfig& lab,
                                               const std::filesystem::path& submission);

}  // namespace gpulab
