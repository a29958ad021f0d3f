#include "lab/gradescope_policy.h"

#include <algorithm>
#include <cmath>

#include "lab/lab_json_reader.h"
#include "lab/lab_schema.h"

namespace gpulab {

double LatePenalty::fraction(double late_s) const {
  if (!(late_s > 0)) return 0;
  const double days = std::ceil(late_s / 86400.0);
  return std::min(max, per_day * days);
}

GradescopePolicy GradescopePolicy::parse(const nlohmann::json& gs, const LabJsonReader& r) {
  GradescopePolicy p;
  if (gs.is_null()) return p;
  const std::string at = "gradescope";
  r.only_keys(gs, at, schema_keys("/properties/gradescope"));
  if (gs.contains("hidden_tests_visibility")) {
    p.hidden_tests_visibility = r.str(gs, "hidden_tests_visibility", at);
    if (p.hidden_tests_visibility != "after_due_date" &&
        p.hidden_tests_visibility != "after_published")
      r.fail(at + ".hidden_tests_visibility",
             "must be \"after_due_date\" or \"after_published\", not \"" +
                 p.hidden_tests_visibility + "\"");
  }
  if (gs.contains("late_penalty")) {
    const auto& lp = gs["late_penalty"];
    const std::string where = at + ".late_penalty";
    r.only_keys(lp, where, schema_keys("/properties/gradescope/properties/late_penalty"));
    LatePenalty late;
    late.per_day = r.num(lp, "per_day", where);
    if (lp.contains("max")) late.max = r.num(lp, "max", where);
    if (!(late.per_day > 0 && late.per_day <= 1))
      r.fail(where + ".per_day", "must be a fraction of the score in (0, 1]");
    if (!(late.max > 0 && late.max <= 1))
      r.fail(where + ".max", "must be a fraction of the score in (0, 1]");
    p.late_penalty = late;
  }
  if (gs.contains("submission_limit")) {
    const auto& v = gs["submission_limit"];
    if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 1000000)
      r.fail(at + ".submission_limit", "must be a whole number of submissions, at least 1");
    p.submission_limit = v.get<int>();
  }
  return p;
}

}  // namespace gpulab
