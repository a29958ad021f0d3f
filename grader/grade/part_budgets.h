// A grading's parts under its time budget (time_budget.h, docs/GRADING.md "The time budget"):
// each part graded within its share, the children's deadline (process.h's ChildDeadline) set
// to the share's end; a part the budget does not reach, or whose share runs out, reported
// "<part>: not graded: time budget", 0 of the points it had left to earn, with a message that
// says why and that the 0 says nothing of the code; and what the budget cut said above the
// tests (the score is not a full grade) and to the instructor (the log, and the report's
// environment, `time_budget`).
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/report.h"
#include "core/report_builder.h"
#include "lab/lab_config.h"
#include "os/process.h"
#include "os/time_budget.h"

namespace gpulab {

class PartBudgets {
 public:
  // `budget`: none grades every part as it comes, with no deadline. `report` is the one `out`
  // builds; `lab` and `scope` must outlive this.
  PartBudgets(std::optional<TimeBudget> budget, Report& report, ReportBuilder& out,
              const LabConfig& lab, const GradeScope& scope, std::ostream& log);

  bool any() const { return budget_.has_value(); }
  // The time by which the build must end: the budget's end; nullopt without a budget.
  std::optional<TimeBudget::Clock::time_point> end() const;

  // Grades `part` with `grade`, one of `parts_left` parts still to grade (it counted), within
  // its share; or reports it not graded where the budget cannot start it. A share that runs out
  // (OutOfTime) ends the part: the tests it made stay, the rest of its points are not graded.
  void grade(const PartSpec& part, int parts_left, const std::function<void()>& grade);
  // The build was stopped by the budget (OutOfTime): every selected part not graded.
  void build_stopped(const OutOfTime& stop);
  // Once the parts are done: the line above the tests where a part was not graded, and the
  // environment's record of the budget.
  void finish();

 private:
  // A part, or what was left of it, not graded: a test "<part>: <which>not graded: time
  // budget", 0 of `max`, `why` for the student, `log` for the log. Returns its place.
  size_t not_graded(const PartSpec& part, double max, const std::string& which,
                    const std::string& why, const std::string& log, std::optional<double> share_s);
  // `part`, whose tests from `first` on it made within its share, stopped by `stop`.
  void cut_short(const PartSpec& part, size_t first, double share_s, const OutOfTime& stop);
  // The points `part` has on hidden datasets here.
  double hidden_max(const PartSpec& part) const;
  // The message's opening: what a time budget is, for a student who never set one.
  std::string why_a_budget() const;

  std::optional<TimeBudget> budget_;
  Report& report_;
  ReportBuilder& out_;
  const LabConfig& lab_;
  const GradeScope& scope_;
  std::ostream& log_;
  struct Cut {
    std::string part;
    std::optional<double> share_s;  // none: the part was not started
    std::string why;                // for the instructor
    bool shown_now = true;          // its test is shown now: not only the hidden datasets' points
  };
  std::vector<Cut> cuts_;
};

}  // namespace gpulab
