// The expect.json convention of the shipped submissions (tests/submissions/<lab>/<name>/) and
// of the adversarial ones (tests/adversarial/<lab>/<name>/): how a submission is made, and what
// its report must show.
//   {"part": P, or [P, ...] (each part graded, each expected to show what follows),
//    "backends": ["sim", "cuda"],
//    "build": "fail"                      (the part's "does not build" test), or
//    "intake": "reject"                   (the part's "submission not accepted" test), or
//    "public": "pass" | "fail", "hidden": "pass" | "fail" (optional; any group of the lab; or
//              one per part: {"inclusive": "pass", "hillis-steele": "fail"}, or one per
//              backend: {"sim": "fail", "cuda": "pass"}),
//    "output_contains": [texts the failing test's output must hold (where the public datasets
//                         pass, the report anywhere); {backend: text} where the words differ
//                         by backend],
//    "output_lacks": [texts found nowhere in the report: no test's output, nor its own],
//    "report_output_contains": [texts the report's own output must hold],
//    "review_flags": [the names of the flags the instructors' "to review" test lists, exactly,
//                     in any order (grader/core/review_flags.def); that test hidden from students;
//                     [] where there must be none],
//    "timeout": seconds per correctness run (gpulab grade --timeout),
//    "about": what the submission is (for people),
//    "from_reference": {file: [[old, new], ...]},   (optional, see below)
//    "append_to_reference": [file, ...]}            (optional, see below)
// A planted bug is best written as edits of the reference ("from_reference"): the submission
// is then the reference's files with each `old` text (which must occur exactly once) replaced
// by `new`, so the bug follows the reference as it is tuned, and a bug that no longer applies
// fails its test. "append_to_reference" appends the submission's own copy of each named file
// to the (edited) reference's: hostile code beside an honest solution, each readable on its
// own. In a submission's own files, @GPULAB_SOURCE_DIR@ stands for the source tree's absolute
// path (a submission that names a file of the grader's machine). The adversarial test reads
// more keys of its own (tests/e2e/adversarial_e2e.cpp).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace e2e {

struct Expected {
  std::string lab, name;
  std::filesystem::path dir;
  nlohmann::json spec;
};

// The submissions under root/<lab>/<name>/ that carry an expect.json: one list per lab, labs and
// submissions sorted by name.
std::vector<std::vector<Expected>> expectations_under(const std::filesystem::path& root);

bool on_backend(const nlohmann::json& spec, const std::string& backend);
std::vector<std::string> parts_of(const nlohmann::json& spec);

// `gpulab grade`'s options for it: the backend's, its parts, --no-time, its "timeout".
std::vector<std::string> grade_args(const nlohmann::json& spec,
                                    std::vector<std::string> backend_args);

// The submission's directory: its own, or one made in a scratch directory (see above).
std::filesystem::path materialize(const Expected& e);

// The report shows what the spec says (build, intake, groups, output texts).
void check_report(const Expected& e, const nlohmann::json& report);

// Grades it (materialized) on a backend and checks the report.
void check_submission(const Expected& e, const std::vector<std::string>& backend_args);

}  // namespace e2e
