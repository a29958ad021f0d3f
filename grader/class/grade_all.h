// Grading a class: every student of a roster (roster.h) for each lab, each in its own
// `gpulab grade` process, several at a time. Each grader writes gpulab's own report
// (report_json.h) to OUT/<lab>/<student>/report.json, and results.json (Gradescope's) is written
// from it where it has a score; the class CSV, the HTML summary (class_table.h) and the
// gradebook uploads (gradebook.h) are made from those same reports, so every export gives the
// same grade.
//
// Why a process per submission, not a thread: a grader that crashes, hangs or runs out of
// memory on one submission takes only that process with it; CUDA_VISIBLE_DEVICES, which pins a
// grader to its GPU, is per process; and each submission goes through exactly what
// `gpulab grade` does, sandbox and intake included.
//
// One submission's grading and the files it leaves are class_job.h's, shared with grade-all on
// a SLURM cluster (slurm_backend.h), which runs the same gradings as tasks of a job array.
//
// Resuming: beside each report, grading.json records the configuration it was graded with
// (lab, backend, hidden seed's fingerprint, gpulab version, timing on or off, the submission's
// content hash). A rerun skips a student whose record matches; anything else (no record, a
// changed submission or seed, a grader failure) is graded again. The record is removed before
// a grading starts and written after its report, each through a rename, so an interruption at
// any point leaves either a complete, recorded report or one that is graded again.
//
// GPUs: each grader is given one visible GPU (the least busy) through CUDA_VISIBLE_DEVICES,
// compiles without holding it, then takes an exclusive lock on that GPU's lock file
// (gpulab-gpu-<uuid>.lock in the temporary directory, so separate grade-all runs share it) for
// as long as it runs code: one grader at a time per GPU, all GPUs busy. On sim there is no lock.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/grading_policy.h"
#include "os/stop_signals.h"

namespace gpulab {

// A class's grading: the policy each of its graders is given (grading_policy.h), and the class.
struct GradeAllOptions : GradingPolicy {
  std::filesystem::path roster, out;
  // Who the students are (roster_csv.h), for the exports' id, name and email columns; empty:
  // the roster's folder names alone.
  std::filesystem::path roster_csv;
  // "LAB=ID": the lab's Canvas assignment, named in the Canvas gradebook's column (gradebook.h).
  std::vector<std::string> canvas_assignments;
  std::vector<std::string> labs;
  unsigned jobs = 0;                       // graders at once; 0: one per CPU core
  double submission_timeout_s = 4 * 3600;  // one student's whole grading of one lab
};

// Stopped (stop_signals.h: SIGTERM, SIGINT), grade-all starts no more graders and sends each
// running one SIGTERM, with time to write its report; a submission whose grading was stopped
// keeps no new report or record (report.json.partial holds what the grader wrote), so the
// next run grades it again. The class CSV, HTML and gradebooks are left as they were.
// How long a stopped grade-all waits for its graders: longer than each takes to stop itself.
constexpr double kGradeAllStopGraceS = kStopGraceS + 3;

// Progress goes to `progress` (a bar on a terminal, lines otherwise), warnings and the summary
// to `out`. Returns kExitOk when every submission was graded, kExitFailed when the grader failed
// on some (their reports say so), kExitStopped when stopped (exit_status.h), and throws
// std::runtime_error when it cannot start (a bad roster or lab).
int grade_all(const GradeAllOptions& options, std::ostream& out, std::ostream& progress,
              bool progress_is_tty);

// grade-all's paths made absolute: each grader runs in its student's output directory, and a
// SLURM task wherever the scheduler puts it.
GradeAllOptions absolute_paths(GradeAllOptions o);

// What grade-all checks before it grades anything, locally or on SLURM: the labs exist, the
// --canvas-assignment options and the roster CSV read. Returns the hidden seed (a warning on
// `out` where there is none). Throws std::runtime_error naming what is wrong.
std::optional<std::string> check_class_options(const GradeAllOptions& o, std::ostream& out);

// The class table of every report of `jobs`, and what it renders: class.csv, class.html, and
// the gradebook uploads (gradebook.h). The one place class files are written: by grade-all at
// its end and by `grade-all --merge` after a SLURM job array (slurm_backend.h).
struct ClassJob;
void write_class_files(const GradeAllOptions& o, const std::vector<ClassJob>& jobs);
// The line that names them, under `out`, for grade-all's and --merge's last words.
std::string class_files_line(const std::filesystem::path& out);

// The UUIDs of the GPUs this process sees; none on the sim backend or without a GPU.
std::vector<std::string> visible_gpus(Backend backend);

// For a `gpulab grade` that grade-all started: it dies with grade-all (even when grade-all is
// killed with -9), so an interrupted class grading leaves no grader running behind it.
void die_with_parent(pid_t parent);

}  // namespace gpulab
