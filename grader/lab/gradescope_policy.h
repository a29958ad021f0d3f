// lab.json's "gradescope": the course's policy where the lab is graded on Gradescope: when the
// tests on hidden datasets are shown, a late penalty, a submission limit. The last two are
// applied from Gradescope's submission_metadata.json (submission_policy.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gpulab {

// A fraction of the score off per started day past the assignment's due date, at most `max`.
struct LatePenalty {
  double per_day = 0;
  double max = 1;
  // The fraction off for a submission `late_s` seconds after the due date.
  double fraction(double late_s) const;
};

struct GradescopePolicy {
  // Gradescope's visibility of a test on hidden datasets: "after_due_date" or "after_published".
  std::string hidden_tests_visibility = "after_due_date";
  std::optional<LatePenalty> late_penalty;  // none: no penalty
  // The submissions that count: a later one gets its feedback but keeps the score of the
  // latest submission before it. None: no limit.
  std::optional<int> submission_limit;

  // Whether anything needs submission_metadata.json.
  bool reads_metadata() const { return late_penalty || submission_limit; }

  // From lab.json's "gradescope", which labs/lab.schema.json has checked (schema_check.h).
  static GradescopePolicy parse(const nlohmann::json& gradescope);
};

}  // namespace gpulab
