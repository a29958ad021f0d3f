// grader/os/time_budget.h and grader/grade/part_budgets.h: how a grading's time budget is shared
// among its parts (on time points given, so nothing waits), and what the report says of a part the
// budget did not reach or whose share ran out: 0 of the points it had left, a message the
// student reads, a line above the tests, and the instructor's record in the environment.
#include "os/time_budget.h"

#include <doctest/doctest.h>

#include <sstream>

#include "core/report_builder.h"
#include "core/scoring.h"
#include "grade/part_budgets.h"
#include "os/platform_time.h"

namespace {

using namespace gpulab;
using Clock = TimeBudget::Clock;

Clock::time_point at(Clock::time_point t0, double s) {
  return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// A lab of three parts worth 10, 20 and 40, each a public group (half) and a hidden one.
LabConfig lab() {
  LabConfig l;
  l.id = "toy";
  for (const char* name : {"a", "b", "c"}) {
    PartSpec p;
    p.name = name;
    l.parts.push_back(p);
  }
  GroupSpec pub, hidden;
  pub.name = "public";
  hidden.name = "hidden";
  hidden.hidden = true;
  pub.backends = hidden.backends = {Backend::cuda, Backend::sim};
  DatasetSpec one, secret;
  one.name = "one";
  secret.name = "secret";
  pub.datasets = {one};
  hidden.datasets = {secret};
  l.groups = {pub, hidden};
  l.rubric = {{"a", {}}, {"b", {}}, {"c", {}}};
  l.rubric["a"].group_points = {{"public", 5}, {"hidden", 5}};
  l.rubric["b"].group_points = {{"public", 10}, {"hidden", 10}};
  l.rubric["c"].group_points = {{"public", 20}, {"hidden", 20}};
  return l;
}

const Test* named(const Report& r, const std::string& name) {
  for (const auto& t : r.tests)
    if (t.name == name) return &t;
  return nullptr;
}

// A grading of lab() on the CPU backend (`parts` of it; none: every part), its parts under
// `budget`, its report and log.
struct Grading {
  explicit Grading(std::optional<TimeBudget> budget, std::vector<std::string> parts = {})
      : scope(sim_scope(std::move(parts))), budgets(budget, report, out, l, scope, log) {}
  static GradeScope sim_scope(std::vector<std::string> parts) {
    GradeScope s;
    s.backend = Backend::sim;
    s.parts = std::move(parts);
    return s;
  }
  const LabConfig l = lab();
  const GradeScope scope;
  Report report;
  ReportBuilder out{report, l, scope};
  std::ostringstream log;
  PartBudgets budgets;
};

}  // namespace

TEST_CASE("the budget keeps a reserve for the report and shares the rest equally") {
  const Clock::time_point t0 = Clock::now();
  const TimeBudget platform(540, t0);
  CHECK(platform.reserve_s() == 5);  // the most kept
  CHECK(platform.left_s(t0) == doctest::Approx(535));
  // Five parts still to grade: a fifth each.
  CHECK(*platform.part_share_s(5, t0) == doctest::Approx(107));
  // A small budget keeps a tenth.
  const TimeBudget small(20, t0);
  CHECK(small.reserve_s() == doctest::Approx(2));
  CHECK(small.left_s(at(t0, 3)) == doctest::Approx(15));
  CHECK(*small.part_share_s(3, at(t0, 3)) == doctest::Approx(5));
}

TEST_CASE("a part that blocks takes no more than its share, and leaves the later parts theirs") {
  const Clock::time_point t0 = Clock::now();
  const TimeBudget b(100, t0);  // 95 s to share after the reserve; 5 s of build first
  double now = 5;
  // a blocks: it uses its whole share. b is fast (1 s): what it leaves goes to c and d.
  const double a = *b.part_share_s(4, at(t0, now));
  CHECK(a == doctest::Approx(22.5));
  now += a;
  const double share_b = *b.part_share_s(3, at(t0, now));
  CHECK(share_b == doctest::Approx(22.5));
  now += 1;
  const double c = *b.part_share_s(2, at(t0, now));
  CHECK(c == doctest::Approx(33.25));  // more than a's: b left most of its share
  now += c;                            // c blocks too
  const double d = *b.part_share_s(1, at(t0, now));
  CHECK(d == doctest::Approx(33.25));
  now += d;
  CHECK(b.left_s(at(t0, now)) == doctest::Approx(0).epsilon(1e-6));
}

TEST_CASE("where little is left the earlier parts get the least share, the later ones none") {
  const Clock::time_point t0 = Clock::now();
  const TimeBudget b(20, t0);  // 18 s after the reserve
  // 2.5 s left for 5 parts: the first gets kMinPartShareS rather than half a second.
  CHECK(*b.part_share_s(5, at(t0, 15.5)) == doctest::Approx(kMinPartShareS));
  // Never more than what is left.
  CHECK(*b.part_share_s(1, at(t0, 16.5)) == doctest::Approx(1.5));
  // Under kMinPartShareS left, or past the end: no share, the part is not graded.
  CHECK_FALSE(b.part_share_s(1, at(t0, 17.5)));
  CHECK_FALSE(b.part_share_s(1, at(t0, 30)));
}

TEST_CASE("each platform's package passes its limit less the margin as --time-budget") {
  // Gradescope's and PrairieLearn's 10 minutes: 540 s.
  CHECK(platform_time_budget_s(kGradescopeTimeoutS) == 540);
  CHECK(platform_time_budget_text(kPrairieLearnTimeoutS) == "540");
  CHECK(platform_time_budget_text(60.0 * kClassroomStepMinutes) == "540");
  // A short limit keeps a tenth; a long one a minute.
  CHECK(platform_time_budget_s(120) == doctest::Approx(108));
  CHECK(platform_time_budget_text(2400) == "2340");
}

TEST_CASE("a part the budget cannot start is not graded, 0 of all its points, and says why") {
  // A budget of 2 s begun a minute ago: nothing left.
  Grading g(TimeBudget(2, Clock::now() - std::chrono::minutes(1)));
  bool ran = false;
  g.budgets.grade(*g.l.part("c"), 1, [&] { ran = true; });
  CHECK_FALSE(ran);
  const Test* t = named(g.report, "c: not graded: time budget");
  REQUIRE(t);
  CHECK(t->score == 0);
  CHECK(t->max_score == 40);
  CHECK_FALSE(t->passed);
  CHECK_FALSE(t->info);
  CHECK(t->visibility == "visible");
  CHECK(t->output.find("before this part") != std::string::npos);
  CHECK(t->output.find("says nothing about whether it is right") != std::string::npos);
  CHECK(g.log.str().find("warning (instructor): time budget: c not graded") != std::string::npos);
  g.budgets.finish();
  CHECK(g.report.output.find("Not every part was graded") != std::string::npos);
  CHECK(g.report.output.find("so c was not graded") != std::string::npos);
  const auto& record = g.report.environment.at("time_budget");
  CHECK(record.at("budget_s") == 2);
  REQUIRE(record.at("not_graded").size() == 1);
  CHECK(record.at("not_graded")[0].at("part") == "c");
  CHECK(record.at("not_graded")[0].at("share_s").is_null());
}

TEST_CASE("a part whose share runs out keeps the tests it made; the rest are not graded") {
  Grading g(TimeBudget(600, Clock::now()));
  // a finishes within its share: graded as it came, nothing cut.
  g.budgets.grade(*g.l.part("a"), 3, [&] { g.out.scored("a: public", 5, 5, true, "ok", {"a"}); });
  // c's share runs out on its first public dataset, before any test of it was made. The
  // deadline in force while it graded was its share's, within the budget.
  std::optional<Clock::time_point> deadline;
  g.budgets.grade(*g.l.part("c"), 2, [&] {
    deadline = ChildDeadline::current();
    throw OutOfTime{3.3, "your code's run on the dataset one", false};
  });
  REQUIRE(deadline);
  // Its share: half of what was left of 595 s (the reserve kept).
  CHECK(std::chrono::duration<double>(*deadline - Clock::now()).count() ==
        doctest::Approx(297.5).epsilon(0.01));
  CHECK_FALSE(ChildDeadline::current());  // put back once the part is done
  const Test* shown = named(g.report, "c: not graded: time budget");
  REQUIRE(shown);
  CHECK(shown->max_score == 20);  // the public group's points
  CHECK(shown->score == 0);
  CHECK_FALSE(shown->on_hidden_datasets);
  CHECK(shown->output.find("your code's run on the dataset one had run 3.3 s without finishing") !=
        std::string::npos);
  CHECK(shown->output.find("The tests of this part above") == std::string::npos);
  // The hidden datasets' points apart, held back with their results.
  const Test* held = named(g.report, "c: hidden datasets not graded: time budget");
  REQUIRE(held);
  CHECK(held->max_score == 20);
  CHECK(held->on_hidden_datasets);
  CHECK_FALSE(named(g.report, "a: not graded: time budget"));
  // The score counts the parts' whole maxima: not graded is not left out.
  CHECK(g.report.max_score() == 5 + 20 + 20);
  g.budgets.finish();
  CHECK(g.report.output.find("so c was not graded") != std::string::npos);
  const auto& cut = g.report.environment.at("time_budget").at("not_graded");
  REQUIRE(cut.size() == 1);
  CHECK(cut[0].at("part") == "c");
  CHECK(cut[0].at("share_s").get<double>() == doctest::Approx(297.5).epsilon(0.01));
}

TEST_CASE("a share that runs out on a hidden dataset is told only with the hidden results") {
  Grading g(TimeBudget(600, Clock::now()));
  // b's public group was graded; its share ran out on a hidden dataset.
  g.budgets.grade(*g.l.part("b"), 1, [&] {
    g.out.scored("b: public", 10, 10, true, "PASS one", {"b"});
    throw OutOfTime{12.5, "your code's run on a hidden dataset", true};
  });
  CHECK(named(g.report, "b: public"));
  // Nothing shown now says so: no visible test, no line above the tests.
  CHECK_FALSE(named(g.report, "b: not graded: time budget"));
  const Test* held = named(g.report, "b: hidden datasets not graded: time budget");
  REQUIRE(held);
  CHECK(held->max_score == 10);
  CHECK(held->on_hidden_datasets);
  CHECK(held->output.find("a hidden dataset had run 12.5 s without finishing") !=
        std::string::npos);
  CHECK(held->output.find("The tests of this part above were graded") != std::string::npos);
  g.budgets.finish();
  CHECK(g.report.output.empty());
  // The instructor's record and log have it.
  CHECK(g.report.environment.at("time_budget").at("not_graded").size() == 1);
  CHECK(g.log.str().find("time budget: b not graded") != std::string::npos);
}

TEST_CASE("a build the budget stopped leaves every part not graded") {
  Grading g(TimeBudget(30, Clock::now()), {"a", "c"});
  g.budgets.build_stopped(OutOfTime{26.8, "", false});
  g.budgets.finish();
  REQUIRE(g.report.tests.size() == 2);
  CHECK(g.report.tests[0].name == "a: not graded: time budget");
  CHECK(g.report.tests[1].name == "c: not graded: time budget");
  CHECK(g.report.max_score() == 50);
  CHECK(g.report.tests[1].output.find("the build of the submission had run 26.8 s") !=
        std::string::npos);
  CHECK(g.report.output.find("so a and c were not graded") != std::string::npos);
}

TEST_CASE("without a budget a part is graded as it comes, with no deadline and no record") {
  Grading g(std::nullopt);
  CHECK_FALSE(g.budgets.end());
  bool deadline = true;
  g.budgets.grade(*g.l.part("a"), 1, [&] { deadline = ChildDeadline::current().has_value(); });
  CHECK_FALSE(deadline);
  g.budgets.finish();
  CHECK(g.report.environment.find("time_budget") == g.report.environment.end());
  CHECK(g.report.output.empty());
}
