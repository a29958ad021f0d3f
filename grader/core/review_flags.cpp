#include "core/review_flags.h"

#include <algorithm>

#include "text/joined_words.h"

namespace gpulab {

namespace {

// The table's words as values: a mistyped "where" does not compile.
#define GPULAB_REVIEW_WHERE_code ReviewWhere::kCode
#define GPULAB_REVIEW_WHERE_text ReviewWhere::kText
#define GPULAB_REVIEW_WHERE_define ReviewWhere::kDefine

constexpr bool has_comma(const char* text) {
  for (; *text; ++text)
    if (*text == ',') return true;
  return false;
}

// Names are listed with ", " (the test's title, class.csv's cell), so none may hold a comma.
#define GPULAB_REVIEW_FLAG(id, name, where, patterns, why) \
  static_assert(!has_comma(name), "review_flags.def: the name of " #id " holds a comma");
#include "core/review_flags.def"

}  // namespace

const std::vector<ReviewFlag>& review_flags() {
  static const std::vector<ReviewFlag> flags = {
#define GPULAB_REVIEW_FLAG(id, name, where, patterns, why) \
  {#id, name, GPULAB_REVIEW_WHERE_##where, patterns, why},
#include "core/review_flags.def"
  };
  return flags;
}

#undef GPULAB_REVIEW_WHERE_code
#undef GPULAB_REVIEW_WHERE_text
#undef GPULAB_REVIEW_WHERE_define

const ReviewFlag* review_flag(const std::string& id) {
  for (const auto& f : review_flags())
    if (id == f.id) return &f;
  return nullptr;
}

namespace {

// The flag's name, or its id where this gpulab does not know it.
std::string name_of(const std::string& id) {
  const ReviewFlag* f = review_flag(id);
  return f ? f->name : id;
}

}  // namespace

std::vector<std::string> review_flag_names(const std::vector<ReviewFlagSite>& sites) {
  std::vector<std::string> names;
  for (const auto& s : sites) {
    std::string name = name_of(s.flag);
    if (std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(std::move(name));
  }
  return names;
}

std::string review_site_heading(const ReviewFlagSite& site) {
  const ReviewFlag* f = review_flag(site.flag);
  return site.file + ":" + std::to_string(site.line) + ": " + name_of(site.flag) + " (" +
         site.matched + (site.count > 1 ? ", " + std::to_string(site.count) + " places" : "") +
         ")" + (f ? std::string(": ") + f->why : std::string());
}

std::string review_title(const std::vector<ReviewFlagSite>& sites) {
  return "to review: " + joined(review_flag_names(sites));
}

std::string review_text(const std::vector<ReviewFlagSite>& sites) {
  std::string text =
      "For instructors; students do not see this. The student's files hold what a grader cannot "
      "rule out as honest: a prompt to read the code there, not a verdict. Each flag's first "
      "place in a file:\n";
  for (const auto& s : sites)
    text += review_site_heading(s) + "\n" + (s.source.empty() ? "" : "    " + s.source + "\n");
  return text;
}

}  // namespace gpulab
