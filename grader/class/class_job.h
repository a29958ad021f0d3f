// One student's grading of one lab, as grade-all does it (grade_all.h) on one machine and as each
// task of a SLURM job array does it (slurm_backend.h): the files it leaves in
// OUT/<lab>/<student>/, the record that decides whether a rerun grades it again, and the child
// `gpulab grade` that grades it. One place, so that both ways grade and resume alike.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "class/grade_all.h"
#include "core/report.h"

namespace gpulab {

// The files of one student-lab, beside each other in its directory.
namespace class_files {
// The grade, in gpulab's own format: what every export is made from.
constexpr const char* kReport = "report.json";
constexpr const char* kPartial = "report.json.partial";  // what the grader writes, checked
constexpr const char* kResults = "results.json";         // Gradescope's, from a report with a score
constexpr const char* kRecord = "grading.json";
constexpr const char* kLog = "grade.log";
// Present while a SLURM task grades it (job, task, host, start): --status's "running".
constexpr const char* kRunning = "running.json";
}  // namespace class_files

// A record's outcome: only "graded" is skipped by a rerun.
constexpr const char* kOutcomeGraded = "graded";
constexpr const char* kOutcomeFailed = "grader failed";
constexpr const char* kOutcomeStopped = "stopped";

struct ClassJob {
  std::string lab, student;
  std::filesystem::path submission, dir;  // dir: OUT/<lab>/<student>
  nlohmann::json key;                     // the configuration this grading is for
};

// Every student-lab of the roster, in lab order then student order, each with its key under
// `seed`; the roster's oddities (an entry that is no student, the roster CSV's mismatches) are
// said on `warnings`. Throws std::runtime_error for a roster it cannot read.
std::vector<ClassJob> list_class_jobs(const GradeAllOptions& o,
                                      const std::optional<std::string>& seed,
                                      std::ostream& warnings);

// Where a student-lab's files go: OUT/<lab>/<student>.
std::filesystem::path class_job_dir(const std::filesystem::path& out, const std::string& lab,
                                    const std::string& student);

// Whether `j` was graded with its key and its reports are in place: a rerun skips it.
bool already_graded(const ClassJob& j);

// A JSON file's content; none where it is missing or not JSON.
std::optional<nlohmann::json> read_json_file(const std::filesystem::path& file);

// The gpulab report `file` holds; none where it is missing or is not one.
std::optional<Report> read_report(const std::filesystem::path& file);

// The seed as the record keeps it: an HMAC under it (secret.h), which tells seeds apart and
// gives none back, so grading.json may be seen by anyone.
std::string seed_fingerprint(const std::optional<std::string>& seed);

std::string now_iso8601();

struct GradedSubmission {
  bool scored = false;  // the report holds a score
  std::string line;     // "lab/student: 8 / 10 (12 s)", for the progress
};

// Grades `j` in a child `gpulab grade` (the seed in its environment, never its command line),
// on the GPU whose UUID is `gpu` (empty: none), and writes report.json, results.json,
// grade.log and, last, grading.json. Throws Stopped when gpulab is stopped meanwhile: then no
// new report or record is written (report.json.partial holds what the grader wrote).
GradedSubmission grade_class_job(const ClassJob& j, const GradeAllOptions& o,
                                 const std::optional<std::string>& seed, const std::string& gpu);

// The report of a grading the scheduler stopped (scancel, the time limit: `signal`): no score,
// and it says so and that the next grade-all grades it again.
Report stopped_by_scheduler_report(const std::string& lab, Backend backend, int signal);

// For a SLURM task stopped while grading `j`: the report above as report.json (and
// results.json), and a record whose outcome is "stopped", so that a rerun grades it again.
void record_stopped_by_scheduler(const ClassJob& j, Backend backend, int signal);

}  // namespace gpulab
