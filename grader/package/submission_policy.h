// The course's late penalty and submission limit (lab.json's "gradescope", gradescope_policy.h)
// applied to one grading, from the submission_metadata.json Gradescope gives its autograder
// (`gpulab grade --submission-metadata FILE`). The score given and its reason go into
// Report::adjustment only, so every format gives the same score.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/report.h"
#include "lab/gradescope_policy.h"

namespace gpulab {

// A submission_metadata.json the policy cannot use: what() names the file, the key and why.
struct SubmissionMetadataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An ISO 8601 time as Gradescope writes it ("2026-11-20T23:00:00.000000-08:00"; "Z" or an
// offset, with or without a colon), in seconds since 1970-01-01 UTC; nullopt where it is not one.
std::optional<double> iso8601_seconds(const std::string& text);

// What the policy reads of submission_metadata.json.
struct SubmissionMetadata {
  struct Time {
    double s = 0;      // seconds since 1970-01-01 UTC
    std::string text;  // as the file gives it, for messages
  };
  struct Previous {
    Time submitted;
    std::optional<double> score;
  };
  Time created_at;
  std::optional<Time> due_date;  // null in the file: no due date, nothing is late
  std::vector<Previous> previous;

  // Reads the keys `policy` needs (created_at and assignment.due_date for a late penalty,
  // previous_submissions for a limit); throws SubmissionMetadataError naming `file` and the key.
  static SubmissionMetadata parse(const std::string& text, const std::string& file,
                                  const GradescopePolicy& policy);
};

// The score `policy` gives this submission, with a reason for the student; nullopt where the
// tests' sum stands (on time, within the limit). Past the limit: the latest previous
// submission's score. Else late: the tests' sum less the late fraction.
std::optional<ScoreAdjustment> submission_adjustment(const Report& report,
                                                     const GradescopePolicy& policy,
                                                     const SubmissionMetadata& metadata);

// What the policy is applied from, read before any student code runs: on Gradescope a
// submission runs unsandboxed beside lab.json and submission_metadata.json, and could rewrite
// them while it is graded (an earlier created_at, no previous submissions, no penalty).
struct GradescopePolicyInputs {
  GradescopePolicy policy;
  std::string lab_problem;              // why the lab's policy could not be read; "" where it was
  std::filesystem::path metadata_file;  // empty: none named
  std::optional<std::string> metadata_text;  // nullopt: the file could not be read

  // The policy of the lab `lab_id` of this gpulab's tree and the bytes of `metadata_file`
  // (read only where the policy needs them).
  static GradescopePolicyInputs read(const std::string& lab_id,
                                     const std::filesystem::path& metadata_file);
  // `policy` with the bytes of `metadata_file` (read where `policy` needs them).
  static GradescopePolicyInputs of(const GradescopePolicy& policy,
                                   const std::filesystem::path& metadata_file);
};

// Sets the report's hidden-tests visibility from the policy and, where a metadata file is named
// and the policy needs it, its adjustment. A metadata file that could not be read, or lacks a
// key the policy needs, leaves the tests' sum as the score: the report's output says so, naming
// the file and the key, and so does `log` (the instructors' log). A report without a score (the
// grader failed, or was stopped) is left so, and so is every report where the lab's policy
// could not be read (`log` says why).
void apply_gradescope_policy(Report& report, const GradescopePolicyInputs& inputs,
                             std::ostream& log);

}  // namespace gpulab
