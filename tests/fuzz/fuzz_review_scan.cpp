// Fuzz target: the review scan (grader/grade/review_scan.h) on whatever bytes a student file holds.
// It must take any of them without a throw, and every site it gives must be one the table knows
// (grader/core/review_flags.def), once per flag, in order of lines that are in the file, with a
// count of at least one and its texts safe (safe_text.h) and cut short.
#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "core/review_flags.h"
#include "fuzz_target.h"
#include "grade/review_scan.h"
#include "text/safe_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto sites = gpulab::review_sites("lab.cu", bytes);
  const int lines = static_cast<int>(std::count(bytes.begin(), bytes.end(), '\n')) + 1;
  std::set<std::string> flags;
  int last_line = 0;
  for (const auto& s : sites) {
    FUZZ_REQUIRE(gpulab::review_flag(s.flag) != nullptr);
    FUZZ_REQUIRE(flags.insert(s.flag).second);
    FUZZ_REQUIRE(s.file == "lab.cu");
    FUZZ_REQUIRE(s.line >= 1 && s.line <= lines && s.line >= last_line);
    last_line = s.line;
    FUZZ_REQUIRE(s.count >= 1);
    FUZZ_REQUIRE(gpulab::is_safe_text(s.source) && gpulab::is_safe_text(s.matched));
    FUZZ_REQUIRE(s.source.size() <= gpulab::kReviewLineLimit + 3);
    FUZZ_REQUIRE(s.source.find('\n') == std::string::npos);
    FUZZ_REQUIRE(gpulab::is_safe_text(gpulab::review_site_heading(s)));
  }
  return 0;
}
