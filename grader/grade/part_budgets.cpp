#include "grade/part_budgets.h"

#include <algorithm>

#include "core/scoring.h"
#include "text/joined_words.h"
#include "text/number_text.h"

namespace gpulab {

namespace {

// "107.9 s", "540 s".
std::string seconds_text(double s) {
  return trimmed_decimal_text(s, 1) + " s";
}

// The student's way on: the 0 is the budget's, not a verdict.
std::string what_it_means(const std::string& lab) {
  return " It scores 0 here, which says nothing about whether it is right: gpulab run " + lab +
         " checks it on your own machine, with no budget.";
}

}  // namespace

PartBudgets::PartBudgets(std::optional<TimeBudget> budget, Report& report, ReportBuilder& out,
                         const LabConfig& lab, const GradeScope& scope, std::ostream& log)
    : budget_(budget), report_(report), out_(out), lab_(lab), scope_(scope), log_(log) {}

std::optional<TimeBudget::Clock::time_point> PartBudgets::end() const {
  if (!budget_) return std::nullopt;
  return budget_->end();
}

std::string PartBudgets::why_a_budget() const {
  return "A course platform stops a grading that runs past its time limit and keeps none of it, "
         "so gpulab grades within a time budget of " +
         seconds_text(budget_->budget_s()) +
         " (--time-budget), shared equally among the parts still to grade";
}

void PartBudgets::grade(const PartSpec& part, int parts_left, const std::function<void()>& grade) {
  if (!budget_) return grade();
  const auto start = TimeBudget::Clock::now();
  const std::optional<double> share = budget_->part_share_s(parts_left, start);
  if (!share) {
    const double left = std::max(0.0, budget_->left_s(start));
    const std::string others =
        parts_left > 1 ? " and the " + std::to_string(parts_left - 1) + " after it" : "";
    not_graded(part, part_max(lab_, part, scope_), "",
               "Not graded: the grading's time ran out before this part. " + why_a_budget() +
                   "; only " + seconds_text(left) + " of it was left for this part" + others +
                   ", too little to start it." + what_it_means(lab_.id),
               "not started: " + seconds_text(left) + " of the budget left for it" + others,
               std::nullopt);
    return;
  }
  const size_t first = report_.tests.size();
  try {
    const ChildDeadline deadline(start + std::chrono::duration_cast<TimeBudget::Clock::duration>(
                                             std::chrono::duration<double>(*share)));
    grade();
  } catch (const OutOfTime& stop) {
    cut_short(part, first, *share, stop);
  }
}

// The points `part` has on hidden datasets here.
double PartBudgets::hidden_max(const PartSpec& part) const {
  double max = 0;
  for (const auto& g : lab_.groups)
    if (g.hidden && scope_.group_runs(g) && !scope_.datasets(g, part.name).empty())
      max += group_max(lab_.rubric.at(part.name), g.name);
  return max;
}

void PartBudgets::cut_short(const PartSpec& part, size_t first, double share_s,
                            const OutOfTime& stop) {
  // The points of the tests it made are graded; the rest of the part is not: those on hidden
  // datasets apart, held back as their results are (Gradescope's "after the due date"), since
  // that they were not reached tells how the code did there.
  double graded = 0, graded_hidden = 0;
  for (size_t i = first; i < report_.tests.size(); ++i) {
    graded += report_.tests[i].max_score;
    if (report_.tests[i].on_hidden_datasets) graded_hidden += report_.tests[i].max_score;
  }
  const double hidden_left = std::max(0.0, hidden_max(part) - graded_hidden);
  const double left = std::max(0.0, part_max(lab_, part, scope_) - graded - hidden_left);
  const std::string during = stop.during.empty() ? "its last run" : stop.during;
  const std::string what =
      stop.ran_s > 0 ? during + " had run " + seconds_text(stop.ran_s) + " without finishing"
                     : "it ran out before " + during + " could start";
  const std::string opening = "Not graded: this part's share of the grading's time ran out. " +
                              why_a_budget() + "; this part's share was " + seconds_text(share_s);
  const std::string above = report_.tests.size() > first
                                ? " The tests of this part above were graded before it ran out."
                                : "";
  const std::string log = "its share of " + seconds_text(share_s) + " ran out: " + what;
  if (left > 0 || hidden_left == 0)
    not_graded(part, left, "",
               opening + (stop.during_hidden ? "." : ", and " + what + ".") + above +
                   what_it_means(lab_.id),
               log, share_s);
  if (hidden_left > 0) {
    const size_t at =
        not_graded(part, hidden_left, "hidden datasets ",
                   opening + ", and " + what + "." + above + what_it_means(lab_.id), log, share_s);
    out_.test(at).on_hidden_datasets = true;
  }
}

void PartBudgets::build_stopped(const OutOfTime& stop) {
  const std::string what = "the build of the submission had run " + seconds_text(stop.ran_s) +
                           " without finishing when the budget ran out";
  for (const auto& part : lab_.parts)
    if (scope_.part_selected(part.name))
      not_graded(part, part_max(lab_, part, scope_), "",
                 "Not graded: the grading's time ran out while your code was being built. " +
                     why_a_budget() + "; " + what + "." + what_it_means(lab_.id),
                 what, std::nullopt);
}

size_t PartBudgets::not_graded(const PartSpec& part, double max, const std::string& which,
                               const std::string& why, const std::string& log,
                               std::optional<double> share_s) {
  const size_t at =
      out_.placeholder(part.name + ": " + which + "not graded: time budget", max, why, {part.name});
  // What was left of a part worth nothing here is information, not a failure.
  out_.test(at).info = max == 0;
  if (cuts_.empty() || cuts_.back().part != part.name) {
    cuts_.push_back({part.name, share_s, log, which.empty()});
    log_ << "warning (instructor): time budget: " << part.name << " not graded: " << log << "\n";
  }
  return at;
}

void PartBudgets::finish() {
  if (!budget_) return;
  nlohmann::json cut = nlohmann::json::array();
  std::vector<std::string> names;
  for (const Cut& c : cuts_) {
    cut.push_back({{"part", c.part},
                   {"share_s", c.share_s ? nlohmann::json(*c.share_s) : nlohmann::json(nullptr)},
                   {"why", c.why}});
    // A part whose hidden datasets alone were cut is told with their results, not here.
    if (c.shown_now) names.push_back(c.part);
  }
  report_.environment["time_budget"] = {
      {"budget_s", budget_->budget_s()}, {"reserve_s", budget_->reserve_s()}, {"not_graded", cut}};
  if (names.empty()) return;
  const std::string last = names.back();
  names.pop_back();
  const std::string listed = names.empty() ? last : joined(names) + " and " + last;
  report_.output += "Not every part was graded: the grading's time budget of " +
                    seconds_text(budget_->budget_s()) +
                    " (the course platform's time limit, less a margin) ran out, so " + listed +
                    (names.empty() ? " was" : " were") +
                    " not graded and count 0 here: this score is not a full grade of the "
                    "submission.\n";
}

}  // namespace gpulab
