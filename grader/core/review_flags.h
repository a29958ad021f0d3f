// The review flags (review_flags.def): constructs in a student's files that a grader cannot rule
// out as honest, listed for the instructor with file and line; students never see them. What
// the scanner looks for (review_scan.h) and how a flagged site reads, in the report's
// instructors-only test and on the class page.
#pragma once

#include <string>
#include <vector>

#include "core/report.h"

namespace gpulab {

// Where a flag's patterns are looked for (review_flags.def's "where").
enum class ReviewWhere { kCode, kText, kDefine };

struct ReviewFlag {
  const char* id;
  const char* name;
  ReviewWhere where;
  const char* patterns;  // space-separated
  const char* why;
};

// Every flag, in the table's order.
const std::vector<ReviewFlag>& review_flags();

// The flag whose id is `id`; null for one this gpulab does not know (a later gpulab's report).
const ReviewFlag* review_flag(const std::string& id);

// The names of the flags of `sites`, each once, in the order they first appear.
std::vector<std::string> review_flag_names(const std::vector<ReviewFlagSite>& sites);

// One site as the instructor reads it, its line of code aside: "scan.cu:42: exit handler
// (atexit, 3 places): runs after ...".
std::string review_site_heading(const ReviewFlagSite& site);

// The title and the text of the instructors' test that lists `sites` (report_builder.h's
// to_review): "to review: exit handler, thread", then what the flags are and each site's heading
// with its line of code, indented, under it.
std::string review_title(const std::vector<ReviewFlagSite>& sites);
std::string review_text(const std::vector<ReviewFlagSite>& sites);

}  // namespace gpulab
