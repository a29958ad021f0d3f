// compute-sanitizer during grading (compute_sanitizer.h; docs/GRADING.md, "compute-sanitizer"):
// on a GPU, where lab.json's "sanitize" asks it of `gpulab grade` or `gpulab run --sanitize`
// asks it, each public dataset of a GPU part is run once more under each tool, by the
// student's runner built a second time with line information (the graded and timed build
// stays as it is), and a finding that is an error fails the dataset, as the CPU backend's do.
// Where there is no GPU or no compute-sanitizer, grade says so in a note and fails no one;
// `run --sanitize` without the tool is an error naming what to install.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "compute_sanitizer.h"
#include "grade_context.h"
#include "report_builder.h"

namespace gpulab {

class SanitizerRuns {
 public:
  // What this grading runs under compute-sanitizer: null where nothing (not asked for, or it
  // cannot here: then a note in `out` says why). Throws where `run --sanitize` asked for it
  // and the tool is missing.
  static std::shared_ptr<SanitizerRuns> for_grading(const GradeContext& c, ReportBuilder& out);

  // Whether a dataset of group `g` of `part` is run under the tools, after its correctness
  // run: on a public dataset of a GPU part, where that run did not time out; for grade only
  // where it passed (a failed dataset needs no more reasons), for run --sanitize always (the
  // tools may say why it failed).
  bool wanted(const PartSpec& part, const GroupSpec& g, bool passed, bool timed_out) const;

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
  const BuildResult& build();

  const GradeContext& c_;
  std::filesystem::path tool_;
  std::vector<std::string> tools_;
  bool asked_;                          // by gpulab run --sanitize, not by lab.json
  std::unique_ptr<BuildResult> build_;  // the student's runner with line information, once
};

}  // namespace gpulab
