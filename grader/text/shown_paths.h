// The student's files under the names the student knows. The grader compiles a copy of the
// submission in its work folder (/tmp/gpulab-XXXXXX/submission/scan.cu), so the compiler's
// errors name that copy; the report and the terminal name the file the student edits instead:
// labs/scan/scan.cu, or whatever --src or --submission named.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab {

// What stands before a student file's name: the submission's folder as given, relative to `cwd`
// when it lies inside it (else as given), with a trailing '/'; for one file given on its own,
// its folder; for an archive nothing (the names inside it).
std::string shown_submission_prefix(const std::filesystem::path& submission,
                                    const std::filesystem::path& cwd);

// `text` with each occurrence of the folder `staged` (followed by '/') replaced by `shown`.
std::string with_student_paths(std::string text, const std::filesystem::path& staged,
                               const std::string& shown);

}  // namespace gpulab
