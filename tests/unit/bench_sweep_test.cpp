// The handouts' bench plots: lab.json's bench_sweeps (grader/lab/bench_sweep_spec.h), their
// records (grader/bench/bench_record.h), checked against the sweep before `gpulab figures` draws
// them, and the log-log line plot (grader/plot/line_plot.h). The sweeps are measured on a GPU only
// (`gpulab bench --sweep`); the committed records are redrawn by the ctest `figures`.
#include <doctest/doctest.h>

#include <algorithm>

#include "bench/bench_record.h"
#include "drawn_image.h"
#include "figures/figures.h"
#include "plot/line_plot.h"
#include "test_util.h"

namespace {

using namespace gpulab;
using nlohmann::json;

LabConfig histogram_lab() {
  return LabConfig::load(test::source_dir() / "labs" / "histogram" / "lab.json");
}

// A record of every (value, part) of the histogram lab's contention sweep.
json full_record(const LabConfig& lab) {
  const BenchSweep& s = lab.bench_sweeps.at(0);
  SweepRecord r{lab.id, s.name, "a GPU (sm_90)", "2026-11-27", "items", 7.43e11, {}};
  for (long long v : s.values)
    for (const auto& p : s.parts) r.rows.push_back({v, p, 1.0 + v, 0.01, 1e9 / (1.0 + v)});
  return to_json(r);
}

std::string read_error(const LabConfig& lab, const json& record) {
  test::TempDir dir;
  test::write_file(dir.path() / "r.json", record.dump());
  try {
    read_sweep_record(dir.path() / "r.json", lab, lab.bench_sweeps.at(0));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a parameter sweep changes its parameter and the fixed params at every point") {
  const LabConfig lab = histogram_lab();
  REQUIRE(lab.bench_sweeps.size() == 1);
  const BenchSweep& s = lab.bench_sweeps[0];
  CHECK(s.param == "bins");
  CHECK(s.define.empty());
  const DatasetSpec* ds = lab.timing_dataset(s.dataset, s.parts[0]);
  REQUIRE(ds);
  const json p = s.params_at(ds->params, 16);
  CHECK(p["bins"] == 16);
  CHECK(p["n"] == 16777216);               // the sweep's smaller input
  CHECK(p["keys"] == ds->params["keys"]);  // the rest as the timing dataset has it
}

TEST_CASE("a sweep record is read back, and one that does not match its sweep is refused") {
  const LabConfig lab = histogram_lab();
  json r = full_record(lab);
  CHECK(read_error(lab, r).empty());

  json missing = r;
  missing["rows"].erase(missing["rows"].begin() + 3);
  CHECK(test::contains(read_error(lab, missing), "lacks rows"));
  CHECK(test::contains(read_error(lab, missing),
                       "build/gpulab bench histogram --sweep contention --json "
                       "docs/bench/histogram/contention.json"));

  json twice = r;
  twice["rows"][1] = twice["rows"][0];
  CHECK(test::contains(read_error(lab, twice), "two rows for histogram-global at 1"));

  json stranger = r;
  stranger["rows"][0]["value"] = 3;
  CHECK(test::contains(read_error(lab, stranger), "does not measure"));

  json zero = r;
  zero["rows"][0]["per_s"] = 0;
  CHECK(test::contains(read_error(lab, zero), "not a positive time and rate"));

  json other = r;
  other["sweep"] = "points-per-thread";
  CHECK(test::contains(read_error(lab, other), "not histogram/contention"));

  CHECK(test::contains(read_error(lab, json::array()), "is not a sweep record"));
}

// The student kit ships no docs/: `gpulab figures histogram` there draws the lab's own figures
// and says which bench plot it cannot, and what would draw it.
TEST_CASE("a sweep without its record is not drawn, and what it needs is said; a bad one throws") {
  const LabConfig lab = histogram_lab();
  test::TempDir dir;
  Paths paths;
  paths.source = dir.path();
  std::vector<std::string> not_drawn;
  CHECK(sweep_figures(lab, paths, not_drawn).empty());
  REQUIRE(not_drawn.size() == 1);
  CHECK(test::contains(not_drawn[0], "contention is not drawn"));
  CHECK(
      test::contains(not_drawn[0], (dir.path() / "docs/bench/histogram/contention.json").string()));
  CHECK(test::contains(not_drawn[0],
                       "`build/gpulab bench histogram --sweep contention --json "
                       "docs/bench/histogram/contention.json` on a GPU"));

  const auto record = sweep_record_path(paths, lab.id, "contention");
  test::write_file(record, full_record(lab).dump());
  not_drawn.clear();
  const std::vector<Figure> drawn = sweep_figures(lab, paths, not_drawn);
  REQUIRE(drawn.size() == 1);
  CHECK(drawn[0].name == "contention");
  CHECK(not_drawn.empty());
  test::write_file(record, "[]");
  CHECK_THROWS_WITH_AS(sweep_figures(lab, paths, not_drawn),
                       doctest::Contains("is not a sweep record"), std::runtime_error);
}

TEST_CASE("the line plot puts each point on log axes and refuses points it cannot place") {
  LinePlot plot;
  plot.title = "t";
  plot.series = {{"a", {1, 10, 100}, {1e9, 1e10, 1e11}}, {"b", {1, 100}, {5e9, 5e9}}};
  plot.ceiling = 2e11;
  plot.ceiling_label = "the ceiling";
  const Canvas canvas = draw_line_plot(plot);
  const std::vector<std::string> words = canvas.words();
  const auto has = [&](const std::string& w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  // A decade label per grid line from 1e9 to 1e12 (the ceiling lifts the top) and a tick
  // label per x of the data.
  for (const char* label : {"1e9", "1e10", "1e11", "1e12", "1", "10", "100", "the ceiling", "a"})
    CHECK_MESSAGE(has(label), label);
  CHECK_FALSE(has("1e8"));
  // Every word is set in the SVG: a glyph per character.
  CHECK(test::glyphs_in(canvas.svg()) == test::characters(words));
  CHECK(decade_label(0) == "1");
  CHECK(decade_label(-3) == "1e-3");

  plot.series[1].y[0] = 0;
  CHECK_THROWS_AS(draw_line_plot(plot), std::invalid_argument);
  plot.series[1].y[0] = 1;
  plot.series[1].x.pop_back();
  CHECK_THROWS_AS(draw_line_plot(plot), std::invalid_argument);
}
