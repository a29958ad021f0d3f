// compute-sanitizer during grading (compute_sanitizer.h; docs/GRADING.md, "compute-sanitizer on
// a GPU"): on a GPU, every `gpulab grade` runs the smallest public datasets of each GPU part once
// more under memcheck and initcheck (racecheck and synccheck too where the student's files use
// shared memory; lab.json's "sanitize" may name the tools and the number of datasets), and
// `gpulab run --sanitize` every public dataset under every tool. The runner is the graded one
// (every CUDA build carries line information: runner_recipe.h, kLineInfoFlag), and a finding
// that is an error fails the dataset, as the CPU backend's do. Where there is no GPU or no
// compute-sanitizer, grade says so in a note and fails no one; `run --sanitize` without the tool
// is an error naming what to install.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/report_builder.h"
#include "grade/grade_context.h"
#include "run/compute_sanitizer.h"

namespace gpulab {

class SanitizerRuns {
 public:
  // What this grading runs under compute-sanitizer: null where nothing (not asked for, or it
  // cannot here: then a note in `out` says why). Throws where `run --sanitize` asked for it
  // and the tool is missing.
  static std::shared_ptr<SanitizerRuns> for_grading(const GradeContext& c, ReportBuilder& out);

  // One dataset's correctness run, as `pick` weighs it.
  struct Candidate {
    std::filesystem::path input;  // the dataset's input folder (grader-made)
    bool passed = false;
    bool timed_out = false;
  };
  // Which datasets of group `g` of `part` run under the tools after their correctness runs
  // (indices into `runs`, in order): public datasets of a GPU part whose run did not time out;
  // for run --sanitize all of them (the tools may say why one failed); for grade only those that
  // passed (a failed dataset needs no more reasons), the lab's `sanitize_datasets` smallest by
  // input bytes (the tools slow kernels down tens of times, and an access past an edge shows
  // on a small input as on a large one), ties kept in lab.json's order.
  std::vector<size_t> pick(const PartSpec& part, const GroupSpec& g,
                           const std::vector<Candidate>& runs) const;

  struct Verdict {
    bool fails = false;
    bool cut_short = false;  // a tool was killed or its log lost (sanitizer_cut_short)
    std::vector<SanitizerFinding> findings;  // every tool's
    std::string notes;  // what else the student should know, lines starting "\n  "
  };
  // A dataset to run under the tools, with its correctness run's `flags`.
  struct Job {
    DatasetDirs d;
    std::vector<std::string> flags;
  };
  // Runs `part` on each job's dataset under each tool, every run side by side (nothing here is
  // timed, and each run alone leaves the GPU and the cores mostly idle); the jobs' verdicts,
  // in their order.
  std::vector<Verdict> check(const PartSpec& part, const std::vector<Job>& jobs);

  SanitizerRuns(const GradeContext& c, std::filesystem::path tool, std::vector<std::string> tools,
                bool asked)
      : c_(c), tool_(std::move(tool)), tools_(std::move(tools)), asked_(asked) {}

 private:
  const GradeContext& c_;
  std::filesystem::path tool_;
  std::vector<std::string> tools_;
  bool asked_;  // by gpulab run --sanitize, not by grade
};

// The tools a grade runs: lab.json's "sanitize.tools" where it names them; else memcheck and
// initcheck, and racecheck and synccheck where a student file of `submission` spells
// __shared__ (the hazards those two find live in shared memory and barriers; a file that hides
// the word still gets the first two).
std::vector<std::string> grade_sanitizer_tools(const LabConfig& lab,
                                               const std::filesystem::path& submission);

}  // namespace gpulab
