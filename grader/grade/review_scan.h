// Finding the review flags (review_flags.def) in a student's files: each file is read as the
// compiler reads it, its line splices (a backslash at a line's end) joined and its comments
// dropped; a code pattern matches whole tokens of code (getenv, not my_getenv, nor getenv in a
// comment or a string), a text pattern the text of string literals (adjacent ones joined) and
// of #include's <header>s. Each flag is folded per file into one site: its first place (file,
// line, what matched there: the tokens, or the literal's first 40 bytes; that line of code
// trimmed and cut short; as safe text) and how many places there are. Any bytes are taken (invalid
// UTF-8, NUL, a line of a megabyte): nothing is thrown but std::bad_alloc.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/report.h"

namespace gpulab {

// The longest line of code a site keeps, in bytes (then "...").
constexpr size_t kReviewLineLimit = 120;

// The sites of the flags `bytes` raises, in the order of their first places; `file` names it
// as the student knows it (scan.cu).
std::vector<ReviewFlagSite> review_sites(const std::string& file, std::string_view bytes);

// The sites of each of `student_files` that `folder` holds as a regular file (the submission as
// intake took it in: each file within its size limit), in the files' order. A file that is not
// there, or cannot be read, has none.
std::vector<ReviewFlagSite> review_submission(const std::filesystem::path& folder,
                                              const std::vector<std::string>& student_files);

}  // namespace gpulab
