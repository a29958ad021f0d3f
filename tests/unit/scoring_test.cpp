// grader/core/scoring.h, grader/core/grade_scope.h and grader/core/report_builder.h: every scoring
// rule on numbers worked out by hand, a part's maximum under each option that leaves tests out, and
// reports whose stated maximum is the sum of the maxima of the tests they hold.
#include "core/scoring.h"

#include <doctest/doctest.h>

#include <cmath>

#include "core/report_builder.h"
#include "test_util.h"

namespace {

using namespace gpulab;

DatasetSpec dataset(const std::string& name, std::vector<std::string> parts = {}) {
  DatasetSpec d;
  d.name = name;
  d.parts = std::move(parts);
  return d;
}

GroupSpec group(const std::string& name, std::vector<DatasetSpec> sets, bool hidden = false,
                bool timing = false,
                std::vector<Backend> backends = {Backend::cuda, Backend::sim}) {
  GroupSpec g;
  g.name = name;
  g.hidden = hidden;
  g.timing = timing;
  g.backends = std::move(backends);
  g.datasets = std::move(sets);
  return g;
}

// A lab of two parts: `gpu` (a GPU part with every kind of points) and `cpu` (a CPU part with
// correctness points only), the points chosen so that every sum of them differs.
//   gpu: public 1, hidden 2, big (cuda only) 4, performance 8, speedup 16, scalability 32
//   cpu: public 64, hidden 128
LabConfig lab() {
  LabConfig l;
  l.id = "toy";
  PartSpec gpu, cpu;
  gpu.name = "gpu";
  gpu.gpu = true;
  cpu.name = "cpu";
  l.parts = {gpu, cpu};
  l.groups = {group("public", {dataset("one"), dataset("two"), dataset("three")}),
              group("hidden", {dataset("secret")}, true),
              group("big", {dataset("huge", {"gpu"})}, false, false, {Backend::cuda}),
              group("timing", {dataset("small", {"gpu"}), dataset("large", {"gpu"})}, false, true,
                    {Backend::cuda})};
  PartRubric g;
  g.group_points = {{"public", 1}, {"hidden", 2}, {"big", 4}};
  g.performance = 8;
  g.speedup = {16, 1.5};
  g.scalability = {32, "small", "large", 1.25};
  PartRubric c;
  c.group_points = {{"public", 64}, {"hidden", 128}};
  l.rubric = {{"gpu", g}, {"cpu", c}};
  return l;
}

double max_of(const LabConfig& l, const std::string& part, const GradeScope& scope) {
  return part_max(l, *l.part(part), scope);
}

}  // namespace

TEST_CASE("a part's maximum counts the tests its grading holds, under each option") {
  const LabConfig l = lab();
  GradeScope full;
  CHECK(max_of(l, "gpu", full) == 1 + 2 + 4 + 8 + 16 + 32);
  CHECK(max_of(l, "cpu", full) == 64 + 128);
  // The total is lab.json's: every point counts in a full grading on a GPU.
  CHECK(max_of(l, "gpu", full) == l.part_points("gpu"));

  GradeScope sim = full;
  sim.backend = Backend::sim;  // no timed points, no cuda-only group
  CHECK(max_of(l, "gpu", sim) == 1 + 2);

  GradeScope no_time = full;
  no_time.performance = false;
  CHECK(max_of(l, "gpu", no_time) == 1 + 2 + 4);

  GradeScope run = full;
  run.include_hidden = false;  // gpulab run
  CHECK(max_of(l, "gpu", run) == 1 + 4 + 8 + 16 + 32);
  CHECK(max_of(l, "cpu", run) == 64);

  GradeScope one = full;
  one.dataset = "two";  // --dataset: only groups holding it; no performance dataset either
  CHECK(max_of(l, "gpu", one) == 1 + 32);
  one.dataset = "large";  // a timing dataset: no correctness group holds it
  CHECK(max_of(l, "gpu", one) == 8 + 16 + 32);

  GradeScope no_reference = full;  // the student kit: the performance test's points left out
  no_reference.reference = false;
  CHECK(max_of(l, "gpu", no_reference) == 1 + 2 + 4 + 16 + 32);
  CHECK(performance_max(l.rubric.at("gpu"), no_reference) == 0);
  CHECK(performance_max(l.rubric.at("gpu"), full) == 8);

  GradeScope no_gpu = full;
  no_gpu.gpu_parts_run = false;  // left out (gpulab run), unless a grade of record counts them
  CHECK(max_of(l, "gpu", no_gpu) == 0);
  CHECK(max_of(l, "cpu", no_gpu) == 64 + 128);
  no_gpu.gpu_parts_count = true;
  no_gpu.performance = false;
  CHECK(max_of(l, "gpu", no_gpu) == 1 + 2 + 4);
}

TEST_CASE("coarsening's maximum under gpulab run is public, performance and speedup") {
  const LabConfig l = LabConfig::load(test::source_dir() / "labs" / "coarsening" / "lab.json");
  const PartSpec& part = l.parts.at(0);
  const PartRubric& r = l.rubric.at(part.name);
  GradeScope run;
  run.include_hidden = false;
  CHECK(part_max(l, part, run) == r.group_points.at("public") + r.performance + r.speedup.points);
  CHECK(part_max(l, part, run) < l.part_points(part.name));  // the hidden points are left out
  run.backend = Backend::sim;
  CHECK(part_max(l, part, run) == r.group_points.at("public"));
}

TEST_CASE("a correctness group is all or nothing: every dataset passes, or no points") {
  const Award all = group_award(4, 4, 10);
  CHECK(all.passed);
  CHECK(all.score == 10);
  const Award one_short = group_award(3, 4, 10);
  CHECK_FALSE(one_short.passed);
  CHECK(one_short.score == 0);
  CHECK(group_award(0, 4, 10).score == 0);
}

TEST_CASE("group_max is the rubric's points for the group, or none") {
  const PartRubric r = lab().rubric.at("gpu");
  CHECK(group_max(r, "hidden") == 2);
  CHECK(group_max(r, "timing") == 0);
  CHECK(group_max(r, "no such group") == 0);
}

TEST_CASE("the performance curve: full to full_at_ratio, then full/ratio, none past the zero") {
  const PerformanceCurve c{1.2, 10.0};
  CHECK(curve_fraction({2.0, 4.0}, 3.0) == doctest::Approx(2.0 / 3));  // the lab's own curve
  CHECK(curve_fraction({2.0, 4.0}, 4.5) == 0);
  CHECK(curve_fraction(c, 0.5) == 1.0);
  CHECK(curve_fraction(c, 1.2) == 1.0);
  CHECK(curve_fraction(c, 2.4) == doctest::Approx(0.5));
  CHECK(curve_fraction(c, 10.0) == doctest::Approx(0.12));
  CHECK(curve_fraction(c, 10.1) == 0.0);
  for (const double bad : {0.0, -1.0, std::nan(""), double(INFINITY)})
    CHECK(curve_fraction(c, bad) == 0);

  const Award half = performance_award(c, 2.4, 15);
  CHECK(half.score == doctest::Approx(7.5));
  CHECK_FALSE(half.passed);  // passed means every point
  const Award all = performance_award(c, 1.0, 15);
  CHECK(all.score == 15);
  CHECK(all.passed);
}

TEST_CASE("the time ratio is the median over rounds of the ratio within each round") {
  // Round ratios 2, 2 and 0.5: the median is 2, though the medians of the times give 1.
  CHECK(time_ratio({10, 20, 30}, {5, 10, 60}) == doctest::Approx(2.0));
  CHECK(time_ratio({10, 20, 30, 7}, {5, 10, 60}) == doctest::Approx(2.0));  // rounds both have
}

TEST_CASE("speedup points: all of them at a speedup of at least at_least, none below") {
  // Round speedups 3, 2 and 1: the median is 2.
  const double s = speedup({30, 20, 10}, {10, 10, 10});
  CHECK(s == doctest::Approx(2.0));
  const Award at = speedup_award({10, 2.0}, s);
  CHECK(at.score == 10);
  CHECK(at.passed);
  const Award below = speedup_award({10, 2.01}, s);
  CHECK(below.score == 0);
  CHECK_FALSE(below.passed);
}

TEST_CASE("scalability points: all of them when the time per unit grows by at most max_growth") {
  // Round growths 1.1, 1.3 and 1.2: the median is 1.2.
  const double g = growth({1, 2, 1}, {1.1, 2.6, 1.2});
  CHECK(g == doctest::Approx(1.2));
  ScalabilityRubric r{32, "small", "large", 1.2};
  CHECK(growth_award(r, g).score == 32);
  CHECK(growth_award(r, g).passed);
  r.max_growth = 1.19;
  CHECK(growth_award(r, g).score == 0);
  CHECK_FALSE(growth_award(r, g).passed);
}

TEST_CASE("the floor is the work at the ceiling with its slack, none without either") {
  // 3e12 units at 1e12/s with a slack of 1.5: 2 s.
  CHECK(floor_ms(1e12, 1.5, 3e12) == doctest::Approx(2000));
  CHECK(floor_ms(1e12, 1.0, 3e12) == doctest::Approx(3000));
  CHECK(floor_ms(0, 1.5, 3e12) == 0);
  CHECK(floor_ms(std::nan(""), 1.5, 3e12) == 0);
  CHECK(floor_ms(1e12, 1.5, 0) == 0);
  CHECK(floor_ms(1e12, 1.5, -1) == 0);
}

TEST_CASE("a placeholder scores nothing of the maximum it stands for") {
  const Test t = placeholder("gpu: does not build", 7, "why", {"gpu"});
  CHECK(t.name == "gpu: does not build");
  CHECK(t.score == 0);
  CHECK(t.max_score == 7);
  CHECK_FALSE(t.passed);
  CHECK(t.output == "why");
  CHECK(t.tags == std::vector<std::string>{"gpu"});
  CHECK(t.visibility == "visible");
  CHECK(t.extra.is_null());
}

TEST_CASE("the scope selects groups and datasets by backend, visibility and --dataset") {
  const LabConfig l = lab();
  GradeScope s;
  s.backend = Backend::sim;
  s.include_hidden = false;
  CHECK(s.group_runs(l.groups[0]));
  CHECK_FALSE(s.group_runs(l.groups[1]));  // hidden, left out
  CHECK_FALSE(s.group_runs(l.groups[2]));  // cuda only
  CHECK_FALSE(s.group_runs(l.groups[3]));  // timing
  CHECK(s.group_off_backend(l.groups[2], l.rubric.at("gpu")));
  CHECK_FALSE(s.group_off_backend(l.groups[2], l.rubric.at("cpu")));  // no points for cpu
  CHECK(s.datasets(l.groups[2], "cpu").empty());                      // huge is gpu's only
  s.dataset = "three";
  REQUIRE(s.datasets(l.groups[0], "gpu").size() == 1);
  CHECK(s.datasets(l.groups[0], "gpu")[0]->name == "three");
  CHECK(s.part_selected("cpu"));
  s.parts = {"gpu"};
  CHECK_FALSE(s.part_selected("cpu"));
}

TEST_CASE("called twice on the second public dataset, or the only one") {
  const LabConfig l = lab();
  GradeScope s;
  REQUIRE(called_twice_on(l, l.parts[0], s));
  CHECK(called_twice_on(l, l.parts[0], s)->name == "two");
  s.dataset = "three";
  REQUIRE(called_twice_on(l, l.parts[0], s));
  CHECK(called_twice_on(l, l.parts[0], s)->name == "three");
  s.dataset = "secret";  // only a hidden group holds it: no call twice
  CHECK(called_twice_on(l, l.parts[0], s) == nullptr);
}

TEST_CASE("the performance dataset passes over the scalability pair's small one") {
  LabConfig l = lab();
  GradeScope s;
  auto [g, ds] = performance_dataset(l, l.parts[0], s);
  REQUIRE(ds);
  CHECK(ds->name == "large");
  CHECK(g == &l.groups[3]);
  s.dataset = "small";  // the only one wanted: taken after all
  ds = performance_dataset(l, l.parts[0], s).second;
  REQUIRE(ds);
  CHECK(ds->name == "small");
  s.backend = Backend::sim;  // timing groups run on cuda only
  CHECK(performance_dataset(l, l.parts[0], s).second == nullptr);
}

TEST_CASE("a report of parts not run states the maximum of the selected parts' tests") {
  const LabConfig l = lab();
  for (const bool hidden : {true, false}) {
    GradeScope s;
    s.include_hidden = hidden;
    s.performance = false;
    s.parts = {"gpu"};
    Report report;
    ReportBuilder b(report, l, s);
    b.parts_not_run("does not build", "Your code did not build.");
    REQUIRE(report.tests.size() == 1);  // --part gpu: the cpu part is not in the report
    CHECK(report.tests[0].name == "gpu: does not build");
    CHECK(report.tests[0].output == "Your code did not build.");
    CHECK(report.score() == 0);
    CHECK(report.max_score() == (hidden ? 1 + 2 + 4 : 1 + 4));
  }
}

TEST_CASE("the report builder adds each test with its points and maximum in one call") {
  const LabConfig l = lab();
  const GradeScope s;
  Report report;
  ReportBuilder b(report, l, s);
  const size_t scored = b.scored("gpu: public", 1, 1, true, "3 of 3", {"gpu", "public"});
  const size_t note = b.instructors_detail("gpu: hidden details", "details", {"gpu"}, true);
  const size_t held = b.placeholder("gpu: performance", 8, "not timed", {"gpu"});
  const size_t info = b.info("gpu: performance not measured", "sim", {"gpu"});
  REQUIRE(report.tests.size() == 4);
  CHECK(b.test(scored).score == 1);
  CHECK(b.test(scored).passed);
  CHECK(b.test(note).max_score == 0);
  CHECK(b.test(note).passed);
  CHECK(b.test(note).visibility == "hidden");
  CHECK(b.test(note).on_hidden_datasets);
  CHECK_FALSE(b.test(note).info);
  CHECK(b.test(info).info);
  CHECK(b.test(info).max_score == 0);
  CHECK_FALSE(b.test(info).passed);
  CHECK(b.test(held).max_score == 8);
  CHECK_FALSE(b.test(held).info);
  CHECK(b.test(held).score == 0);
  CHECK(report.max_score() == 9);
  CHECK(report.score() == 1);
}
