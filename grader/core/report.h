// A grading's report: the one internal form every output is written from (report_formats.h:
// Gradescope's results.json, PrairieLearn's, GitHub Classroom's, gpulab's own), and the short
// terminal summary and table of `gpulab run`.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "text/terminal_style.h"

namespace gpulab {

// A place where the CPU backend found a bug in a test's runs (sim_finding_sites.h), kept
// structured for the class view (class_findings.h); the student reads it in the test's output.
struct SimFindingSite {
  std::string kind;    // the finding's kind (sim_finding_kinds.h)
  std::string file;    // as the student knows it: dcs.cu, harness/device_buffer.h
  int line = 0;        // 0: not known
  std::string source;  // that line of the student's submission, trimmed; empty where not theirs
};

// A construct in a student file that a grader cannot rule out as honest (review_flags.def), for
// the instructor to read; folded per flag and file, at its first place (review_scan.h).
struct ReviewFlagSite {
  std::string flag;     // the flag's id in review_flags.def: exit_handler
  std::string file;     // the student file: scan.cu
  int line = 0;         // of its first place, from 1
  int count = 0;        // its places in the file
  std::string matched;  // what raised it there: atexit, close(3), "/proc/self/maps", #define getenv
  std::string source;   // that line, trimmed and cut short; safe text
};

struct Test {
  std::string name;
  double score = 0, max_score = 0;
  bool passed = false;
  std::string output;
  std::string visibility = "visible";  // "hidden": instructors only
  // Graded on the instructor's hidden datasets: its result reaches students later (Gradescope:
  // after the due date, or once published), while a visible line says that it exists.
  bool on_hidden_datasets = false;
  // A line of information, not a test: worth nothing and neither passed nor failed (a group
  // not run on this backend, performance not measured here). Platforms that show each test as
  // passed or failed get it as text instead.
  bool info = false;
  std::vector<std::string> tags;
  nlohmann::json extra = nlohmann::json::object();
  // Each distinct place the CPU backend found a bug in this test's runs; on the test whose
  // output gives the details (for hidden datasets, the instructors' detail test).
  std::vector<SimFindingSite> sim_findings;
  // What the instructors' "to review" test lists (report_builder.h's to_review); empty on every
  // other test.
  std::vector<ReviewFlagSite> review_flags;
};

// What became of the submission as a whole, each with its name in reports: one list.
#define GPULAB_SUBMISSION_OUTCOMES(X)                                                  \
  X(kGraded, "graded", "taken in and built; its parts were graded")                    \
  X(kNotAccepted, "not accepted", "refused at intake (files missing, too large, ...)") \
  X(kNotBuilt, "did not build", "the compiler or the linker failed on it")

enum class SubmissionOutcome {
#define GPULAB_OUTCOME_ENUM(id, name, what) id,
  GPULAB_SUBMISSION_OUTCOMES(GPULAB_OUTCOME_ENUM)
#undef GPULAB_OUTCOME_ENUM
};

const char* outcome_name(SubmissionOutcome outcome);
// Points as a person reads them in a message: 10, 2.5, 10.99 (printf's %g).
std::string points_text(double points);
// The outcome named `name`; nullopt for a name that is none.
std::optional<SubmissionOutcome> outcome_named(const std::string& name);

// A score that replaces the tests' sum (a late penalty, a submission past the limit): the
// tests keep their points, and every output gives this score with the reason. The reason names
// no points: each line a reader sees adds those it may count (score_lines.h), so that a student
// shown the tests on hidden datasets later reads nothing of them now.
struct ScoreAdjustment {
  double score = 0;  // the score given, every test counted
  std::string why;   // why, naming no points
  // A late penalty's fraction off the tests' sum; none: a score kept from an earlier submission.
  std::optional<double> late_fraction;
};

struct LeaderboardEntry {
  std::string name;
  double value = 0;
  std::string order = "asc";
};

// One row of `gpulab run`'s per-dataset table.
struct DatasetRow {
  std::string part, dataset, result;  // result: "pass", "FAIL", "error", ...
  double err_over_bound = 0;
  double student_ms = -1, reference_ms = -1;
  double ratio = -1;  // the scored time ratio (median over rounds), where timed
};

// A picture for the student beside the tests: the map of where a failing output is wrong
// (error_map_files.h), kept as a PNG file beside the report. PrairieLearn's results carry it
// inline (prairielearn_report.h); the other formats name the file in the test's output. Not in
// gpulab's own report: the file is beside it.
struct ReportImage {
  std::string label;  // what it shows, in words
  std::string file;   // where it was kept, as the test's output names it
  std::string png;    // the PNG file's bytes
};

struct Report {
  std::vector<Test> tests;
  std::vector<ReportImage> images;
  std::vector<LeaderboardEntry> leaderboard;
  std::vector<DatasetRow> rows;
  std::string output;  // shown to students above the tests
  double execution_time_s = 0;
  // Where the grading's time went, seconds by phase (grade_phases.h): for instructors and
  // gpulab bench-grader; empty in a report no grading made (a grader that left none).
  std::map<std::string, double> phase_seconds;
  // The grader's own peak resident memory in MiB (getrusage): whatever a run leaves or sends, it
  // is read on a budget (docs/GRADING.md, "The trust boundary"); 0 in a report no grading made.
  double peak_memory_mib = 0;
  nlohmann::json environment = nlohmann::json::object();  // version, backend, GPU, compiler
  std::string grader_error;  // set when the grader itself failed: then no score is given
  // The signal (SIGTERM, SIGINT) that stopped the grading before it finished (stop_signals.h):
  // then no score is given, and the tests are those finished before it stopped.
  int stopped_by = 0;
  SubmissionOutcome outcome = SubmissionOutcome::kGraded;
  std::optional<ScoreAdjustment> adjustment;
  // When students see the tests on hidden datasets, where a platform can hold results back
  // (Gradescope's "after_due_date" or "after_published": lab.json's
  // gradescope.hidden_tests_visibility, gradescope_policy.h).
  std::string hidden_tests_visibility = "after_due_date";

  // Whether the report carries a score at all: not when the grader failed or was stopped.
  bool scored() const { return grader_error.empty() && !stopped_by; }
  // Whether its tests ran: scored, and the submission taken in and built.
  bool graded() const { return scored() && outcome == SubmissionOutcome::kGraded; }
  // The sum of the tests' points and of their maxima.
  double score() const;
  double max_score() const;
  // The score given: the adjustment's where there is one, else the tests' sum.
  double final_score() const { return adjustment ? adjustment->score : score(); }
  // A few lines for a terminal, and the per-dataset table of `gpulab run`, in `style`. The
  // summary shows and adds up the tests on hidden datasets for instructors (`gpulab grade`),
  // never for a student (`student`: `gpulab run`), whose line would tell how they went.
  std::string summary(const TerminalStyle& style = {}, bool student = false) const;
  std::string table(const TerminalStyle& style = {}) const;
  // Whether a visible test worth points did not pass (summary's FAIL): gpulab run's exit status.
  bool any_failed() const;
};

}  // namespace gpulab
