// grader/lab/lab_config.h: the shipped lab.json loads as written, the performance curve has the
// shape scoring.h describes, and every broken lab.json is an error naming the file and field.
#include "lab/lab_config.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "test_util.h"

namespace {

using gpulab::LabConfig;
using gpulab::PerformanceCurve;
using nlohmann::json;
using test::contains;
namespace fs = std::filesystem;

fs::path real_lab_json() {
  return test::source_dir() / "labs" / "scatter-gather" / "lab.json";
}

json real_lab() {
  return json::parse(test::read_file(real_lab_json()));
}

// Writes `text` as <tmp>/labs/<id>/lab.json and returns the LabConfigError message loading it
// gives; fails the test when it loads.
std::string load_error(const test::TempDir& tmp, const std::string& text,
                       const std::string& id = "scatter-gather") {
  const fs::path file = tmp / "labs" / id / "lab.json";
  test::write_file(file, text);
  try {
    LabConfig::load(file);
  } catch (const gpulab::LabConfigError& e) {
    const std::string msg = e.what();
    CHECK(contains(msg, file.string()));
    return msg;
  }
  FAIL("loading " << file << " did not throw LabConfigError");
  return {};
}

}  // namespace

TEST_CASE("the scatter-gather lab.json loads") {
  const json j = real_lab();
  const LabConfig lab = LabConfig::load(real_lab_json());
  CHECK(lab.id == "scatter-gather");
  CHECK(lab.dir == real_lab_json().parent_path());
  CHECK(lab.interface == "dcs.h");
  CHECK(lab.student_files == std::vector<std::string>{"dcs.cu"});

  REQUIRE(lab.parts.size() == 3);
  CHECK(lab.parts[0].name == "scatter");
  CHECK(lab.parts[1].name == "gather");
  CHECK(lab.parts[2].name == "cpu_fast");
  CHECK(lab.parts[0].gpu);
  CHECK_FALSE(lab.parts[2].gpu);
  CHECK(lab.part("gather") == &lab.parts[1]);
  CHECK(lab.part("reduce") == nullptr);

  const auto& tol = lab.outputs.at("potential").tolerance;
  CHECK(tol.model == "sum_magnitude");
  CHECK(tol.K == j["outputs"]["potential"]["tolerance"]["K"].get<double>());
  CHECK(tol.unit_roundoff == 0x1p-24);
  CHECK(tol.terms == "n_atoms");
  CHECK(tol.position == j["outputs"]["potential"]["tolerance"]["position"].get<bool>());

  REQUIRE(lab.groups.size() == j["dataset_groups"].size());
  for (const auto& g : lab.groups) {
    CAPTURE(g.name);
    CHECK(g.hidden == (g.name == "hidden"));
    CHECK(g.timing == (g.name == "timing"));
    for (const auto& ds : g.datasets) CHECK(ds.seed.has_value() != g.hidden);
  }
  CHECK(lab.groups[2].on_backend(gpulab::Backend::cuda));
  CHECK_FALSE(lab.groups[2].on_backend(gpulab::Backend::sim));
  const auto& large = lab.groups[2].datasets[0];
  CHECK(large.applies_to("gather"));
  CHECK_FALSE(large.applies_to("cpu_fast"));
  CHECK(lab.groups[0].datasets[0].applies_to("cpu_fast"));  // no "parts": every part

  // Every rubric entry in the file, and nothing else, reaches the config.
  REQUIRE(lab.rubric.size() == j["rubric"].size());
  for (const auto& [part, points] : j["rubric"].items()) {
    const auto& r = lab.rubric.at(part);
    double part_total = 0;
    CHECK(r.group_points.size() + 1 == points.size());
    for (const auto& [key, value] : points.items()) {
      CAPTURE(part);
      CAPTURE(key);
      const double p = value.get<double>();
      if (key == "performance") {
        CHECK(r.performance == p);
      } else {
        CHECK(r.group_points.at(key) == p);
      }
      part_total += p;
    }
    CHECK(lab.part_points(part) == part_total);
  }
  CHECK(lab.rubric.at("gather").performance == 15);
  CHECK(lab.timing_for(*lab.part("gather")).ceiling_per_s ==
        j["timing"]["ceiling_per_s"]["gpu"].get<double>());
  CHECK(lab.timing_for(*lab.part("cpu_fast")).ceiling_per_s ==
        j["timing"]["ceiling_per_s"]["cpu"].get<double>());

  CHECK(lab.curve.full_at_ratio == j["performance_curve"]["full_at_ratio"].get<double>());
  CHECK(lab.curve.zero_past_ratio == j["performance_curve"]["zero_past_ratio"].get<double>());
}

TEST_CASE("a lab's own time limit on the CPU backend, else the backend's rule") {
  json j = real_lab();
  REQUIRE_FALSE(j.contains("sim_time_limit"));
  const LabConfig plain = LabConfig::parse(j.dump(), real_lab_json());
  CHECK(plain.sim_time_limit.over_reference == gpulab::SimTimeLimit{}.over_reference);
  CHECK(plain.sim_time_limit.floor_s == gpulab::SimTimeLimit{}.floor_s);
  j["sim_time_limit"] = {{"over_reference", 4}, {"floor_s", 2.5}};
  const LabConfig own = LabConfig::parse(j.dump(), real_lab_json());
  CHECK(own.sim_time_limit.over_reference == 4);
  CHECK(own.sim_time_limit.floor_s == 2.5);
}

// A timed score needs a floor: without one, a time no hardware could reach (a result copied
// from an earlier call, a forged record) would be scored as it stands.
TEST_CASE("every timed part of every lab has a roofline floor") {
  for (const auto& file : gpulab::find_lab_files(test::source_dir())) {
    const LabConfig lab = LabConfig::load(file);
    for (const auto& part : lab.parts)
      if (lab.rubric.at(part.name).timed_points() > 0)
        CHECK_MESSAGE(lab.timing_for(part).ceiling_per_s > 0,
                      lab.id << "'s part " << part.name
                             << " is timed but lab.json gives it no ceiling_per_s");
  }
}

TEST_CASE("timing_for lays a part kind's own timing keys over the lab's and the defaults") {
  const LabConfig lab = LabConfig::load(real_lab_json());
  const json j = real_lab()["timing"];
  const gpulab::TimingSettings& gpu = lab.timing_for(*lab.part("gather"));
  const gpulab::TimingSettings& cpu = lab.timing_for(*lab.part("cpu_fast"));
  const gpulab::TimingSettings defaults;
  // The lab states only what differs from the defaults (lab_timing.h, harness/timing.h).
  REQUIRE_FALSE(j.contains("rounds"));
  REQUIRE_FALSE(j.contains("warmup"));
  CHECK(gpu.rounds == defaults.rounds);
  CHECK(cpu.rounds == j["cpu"]["rounds"].get<int>());
  CHECK(cpu.rounds != gpu.rounds);
  CHECK(cpu.policy.min_samples == j["cpu"]["min_samples"].get<int>());
  CHECK(gpu.policy.min_samples == defaults.policy.min_samples);
  CHECK(cpu.policy.samples == j["cpu"]["samples"].get<int>());
  CHECK(cpu.policy.warmup == defaults.policy.warmup);
  CHECK(cpu.floor_slack == defaults.floor_slack);
  CHECK(gpu.work_unit == j["work_unit"].get<std::string>());
  CHECK(cpu.work_unit == gpu.work_unit);
  // A graded timed run takes exactly `samples` samples.
  CHECK(cpu.graded_policy().min_samples == cpu.policy.samples);
  CHECK(cpu.graded_policy().max_samples == cpu.policy.samples);
  CHECK(gpu.graded_policy().max_samples == defaults.policy.samples);
}

TEST_CASE("a timed test's rounds stop once what it scores agrees, between min_rounds and rounds") {
  gpulab::TimingSettings t;
  t.rounds = 7;
  t.min_rounds = 3;
  t.rounds_agree = 0.02;
  const std::vector<double> alike = {1.0, 1.005, 0.995}, apart = {1.0, 1.1, 0.95};
  CHECK_FALSE(t.rounds_done(2, {{1.0, 1.0}}));  // never before min_rounds
  CHECK(t.rounds_done(3, {alike}));
  CHECK_FALSE(t.rounds_done(3, {apart}));
  CHECK_FALSE(t.rounds_done(3, {alike, apart}));  // every series must agree (the speedup's too)
  CHECK(t.rounds_done(7, {apart}));               // the most there are
  t.rounds_agree = 0;
  CHECK_FALSE(t.rounds_done(3, {alike}));
  CHECK(t.rounds_done(3, {{1.0, 1.0, 1.0}}));
  t.rounds = 2;  // fewer rounds than min_rounds: rounds wins
  CHECK(t.rounds_done(2, {apart}));
  // The shipped labs: the CPU part of scatter-gather takes at least 7 rounds, GPU parts 3.
  const LabConfig lab = LabConfig::load(real_lab_json());
  CHECK(lab.timing_for(*lab.part("cpu_fast")).min_rounds == 7);
  CHECK(lab.timing_for(*lab.part("gather")).min_rounds == gpulab::TimingSettings{}.min_rounds);
}

TEST_CASE("a GPU part keeps the reference's time and a CPU part alternates, unless lab.json says") {
  const LabConfig lab = LabConfig::load(real_lab_json());
  CHECK(lab.timing_for(*lab.part("gather")).kept_reference_drift == 0.03);
  CHECK(lab.timing_for(*lab.part("cpu_fast")).kept_reference_drift == 0);
  // Given lab-wide, it holds for both kinds; given for a kind, for that kind.
  json j = real_lab();
  j["timing"]["kept_reference_drift"] = 0.05;
  const LabConfig both = LabConfig::parse(j.dump(), real_lab_json());
  CHECK(both.timing_for(*both.part("gather")).kept_reference_drift == 0.05);
  CHECK(both.timing_for(*both.part("cpu_fast")).kept_reference_drift == 0.05);
  j["timing"].erase("kept_reference_drift");
  j["timing"]["cpu"]["kept_reference_drift"] = 0.2;
  j["timing"]["gpu"] = {{"kept_reference_drift", 0}};
  const LabConfig kinds = LabConfig::parse(j.dump(), real_lab_json());
  CHECK(kinds.timing_for(*kinds.part("gather")).kept_reference_drift == 0);
  CHECK(kinds.timing_for(*kinds.part("cpu_fast")).kept_reference_drift == 0.2);
}

TEST_CASE("a lab.json without \"timing\" takes every default") {
  json j = real_lab();
  j.erase("timing");
  const LabConfig lab = LabConfig::parse(j.dump(), real_lab_json());
  const gpulab::TimingSettings defaults;
  for (const auto& part : lab.parts) {
    const gpulab::TimingSettings& t = lab.timing_for(part);
    CHECK(t.rounds == defaults.rounds);
    CHECK(t.policy.max_samples == defaults.policy.max_samples);
    CHECK(t.ceiling_per_s == 0);
    CHECK(t.work_unit == defaults.work_unit);
  }
}

TEST_CASE("find_lab_files finds the shipped lab") {
  const auto files = gpulab::find_lab_files(test::source_dir());
  CHECK(std::find(files.begin(), files.end(), real_lab_json()) != files.end());
  CHECK(std::is_sorted(files.begin(), files.end()));
  CHECK(gpulab::find_lab_files(test::source_dir() / "no-such-dir").empty());
}

TEST_CASE("PerformanceCurve: full at 1.2x, zero past 10x unless lab.json says otherwise") {
  // The defaults (lab_config.h); the curve's shape is scoring_test.cpp's.
  const PerformanceCurve c;
  CHECK(c.full_at_ratio == 1.2);
  CHECK(c.zero_past_ratio == 10.0);
}

TEST_CASE("lab.json that is not JSON is a LabConfigError naming the file") {
  test::TempDir tmp;
  const std::string msg = load_error(tmp, "{\"id\": \"scatter-gather\", ");
  INFO(msg);
  CHECK(contains(msg, "not valid JSON"));
}

TEST_CASE("lab.json whose id is not its folder's name is a LabConfigError") {
  test::TempDir tmp;
  const std::string msg = load_error(tmp, real_lab().dump(2), "renamed-lab");
  INFO(msg);
  CHECK(contains(msg, ": id:"));
  CHECK(contains(msg, "\"renamed-lab\""));
}

TEST_CASE("a broken lab.json is a LabConfigError naming the file and the field") {
  test::TempDir tmp;
  // The cases below address dataset groups by index, as the messages do.
  REQUIRE(real_lab()["dataset_groups"][0]["name"] == "public");
  REQUIRE(real_lab()["dataset_groups"][2]["name"] == "timing");

  struct Broken {
    const char* what;
    std::function<void(json&)> mutate;
    std::vector<std::string> message_has;
  };
  const std::vector<Broken> cases = {
      {"missing parts", [](json& j) { j.erase("parts"); }, {"missing \"parts\""}},
      {"device tpu", [](json& j) { j["parts"][1]["device"] = "tpu"; }, {"parts[1].device"}},
      {"position that is not a boolean",
       [](json& j) { j["outputs"]["potential"]["tolerance"]["position"] = "yes"; },
       {"outputs.potential.tolerance.position", "true or false"}},
      {"int32 output compared within a float tolerance",
       [](json& j) { j["outputs"]["potential"]["dtype"] = "int32"; },
       {"outputs.potential.tolerance.model", "float32 outputs only"}},
      {"exact model on a float output",
       [](json& j) {
         j["outputs"]["potential"]["tolerance"] = {{"model", "exact"}};
       },
       {"outputs.potential.tolerance.model", "int32 outputs only"}},
      {"unsupported output dtype",
       [](json& j) { j["outputs"]["potential"]["dtype"] = "float16"; },
       {"outputs.potential.dtype", "\"float16\""}},
      {"a constant count of terms below 1",
       [](json& j) { j["outputs"]["potential"]["tolerance"]["terms"] = 0; },
       {"outputs.potential.tolerance.terms", ">= 1"}},
      {"heads on a tolerance that is not a prefix sum's",
       [](json& j) { j["outputs"]["potential"]["tolerance"]["heads"] = "flags"; },
       {"outputs.potential.tolerance.heads", "\"prefix\""}},
      {"unknown tolerance model",
       [](json& j) { j["outputs"]["potential"]["tolerance"]["model"] = "relative"; },
       {"outputs.potential.tolerance.model", "\"relative\""}},
      {"rubric names an unknown group",
       [](json& j) { j["rubric"]["gather"]["bonus"] = 5; },
       {"rubric.gather.bonus"}},
      {"rubric gives correctness points for a timing group",
       [](json& j) { j["rubric"]["scatter"]["timing"] = 5; },
       {"rubric.scatter.timing"}},
      {"public dataset without a seed",
       [](json& j) { j["dataset_groups"][0]["datasets"][2].erase("seed"); },
       {"dataset_groups[0].datasets[2]", "seed"}},
      {"dataset for an unknown part",
       [](json& j) {
         j["dataset_groups"][2]["datasets"][0]["parts"] = {"scatter", "reduce"};
       },
       {"dataset_groups[2].datasets[0].parts", "\"reduce\""}},
      {"speedup below 1",
       [](json& j) {
         j["rubric"]["gather"]["speedup"] = {{"points", 5}, {"at_least", 0.5}};
       },
       {"rubric.gather.speedup.at_least", "must be a number >= 1"}},
      {"speedup without points",
       [](json& j) {
         j["rubric"]["gather"]["speedup"] = {{"at_least", 2}};
       },
       {"rubric.gather.speedup", "missing \"points\""}},
      {"scalability over a dataset that is not timed",
       [](json& j) {
         j["rubric"]["gather"]["scalability"] = {
             {"points", 5}, {"small", "medium"}, {"large", "large"}, {"max_growth", 1.25}};
       },
       {"rubric.gather.scalability", "\"medium\" is not a timing dataset"}},
      {"scalability over another part's timing dataset",
       [](json& j) {
         j["rubric"]["gather"]["scalability"] = {
             {"points", 5}, {"small", "cpu-timing"}, {"large", "large"}, {"max_growth", 1.25}};
       },
       {"rubric.gather.scalability", "\"cpu-timing\""}},
      {"driver file outside the folder",
       [](json& j) {
         j["driver_files"] = {"driver.cpp", "../x.cu"};
       },
       {"driver_files", "\"../x.cu\""}},
      {"reference driver file outside reference/<lab>/",
       [](json& j) { j["reference_driver_files"] = {"../../labs/scan/x.cu"}; },
       {"reference_driver_files", "\"../../labs/scan/x.cu\""}},
      {"student file outside the folder",
       [](json& j) {
         j["student_files"] = {"dcs.cu", "../x.cu"};
       },
       {"student_files", "\"../x.cu\""}},
      // Found by fuzzing (tests/fuzz/): each was a json type_error, not a LabConfigError.
      {"a group's timing that is not a boolean",
       [](json& j) { j["dataset_groups"][0]["timing"] = 5; },
       {"dataset_groups[0].timing", "true or false"}},
      {"a ceiling that is not a number",
       [](json& j) {
         j["timing"]["ceiling_per_s"] = {{"gpu", "fast"}};
       },
       {"timing.ceiling_per_s.gpu", "must be a number"}},
      {"timing that is not an object", [](json& j) { j["timing"] = 3; }, {"timing", "an object"}},
      {"a CPU backend limit below the reference's own time",
       [](json& j) {
         j["sim_time_limit"] = {{"over_reference", 0.5}, {"floor_s", 60}};
       },
       {"sim_time_limit.over_reference", "must be a number >= 1"}},
      {"a CPU backend limit without its floor",
       [](json& j) {
         j["sim_time_limit"] = {{"over_reference", 8}};
       },
       {"sim_time_limit", "missing \"floor_s\""}},
      {"a CPU backend limit that is not an object",
       [](json& j) { j["sim_time_limit"] = 8; },
       {"sim_time_limit", "an object"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    json j = real_lab();
    c.mutate(j);
    const std::string msg = load_error(tmp, j.dump(2));
    INFO(msg);
    for (const auto& part : c.message_has) CHECK(contains(msg, part));
  }
}

TEST_CASE("the coarsening lab.json: trusted .cu driver files and speedup points") {
  const LabConfig sg = LabConfig::load(real_lab_json());
  CHECK(sg.driver_files == std::vector<std::string>{"driver.cpp"});  // the default
  CHECK(sg.rubric.at("gather").timed_points() == sg.rubric.at("gather").performance);

  const fs::path file = test::source_dir() / "labs" / "coarsening" / "lab.json";
  const json j = json::parse(test::read_file(file));
  const LabConfig lab = LabConfig::load(file);
  CHECK(lab.driver_files == j["driver_files"].get<std::vector<std::string>>());
  // Lab 1's plain gather is the instructor's alone: reference/coarsening/, never labs/.
  CHECK(lab.reference_driver_files == std::vector<std::string>{"driver_baseline.cu"});
  CHECK(sg.reference_driver_files.empty());
  const auto& r = lab.rubric.at("coarsened");
  CHECK(r.speedup.points == j["rubric"]["coarsened"]["speedup"]["points"].get<double>());
  CHECK(r.speedup.at_least == j["rubric"]["coarsened"]["speedup"]["at_least"].get<double>());
  CHECK(r.scalability.points == 0);
  CHECK(r.timed_points() == r.performance + r.speedup.points);
  CHECK(lab.part_points("coarsened") ==
        r.group_points.at("public") + r.group_points.at("hidden") + r.timed_points());
}

TEST_CASE("a scalability rubric names two timing datasets of its part") {
  test::TempDir tmp;
  json j = real_lab();
  j["dataset_groups"][2]["datasets"].push_back(
      {{"name", "small"},
       {"params", j["dataset_groups"][2]["datasets"][0]["params"]},
       {"seed", 99},
       {"parts", {"gather"}}});
  j["rubric"]["gather"]["scalability"] = {
      {"points", 7}, {"small", "small"}, {"large", "large"}, {"max_growth", 1.25}};
  const fs::path file = tmp / "labs" / "scatter-gather" / "lab.json";
  test::write_file(file, j.dump(2));
  const LabConfig lab = LabConfig::load(file);
  const auto& s = lab.rubric.at("gather").scalability;
  CHECK(s.points == 7);
  CHECK(s.small == "small");
  CHECK(s.large == "large");
  CHECK(s.max_growth == 1.25);
  CHECK(lab.part_points("gather") == 10 + 10 + 15 + 7);
  const gpulab::GroupSpec* group = nullptr;
  const gpulab::DatasetSpec* ds = lab.timing_dataset("small", "gather", &group);
  REQUIRE(ds != nullptr);
  CHECK(ds->seed == 99u);
  CHECK(group == &lab.groups[2]);
  CHECK(lab.timing_dataset("small", "scatter") == nullptr);  // its "parts" leave scatter out
  CHECK(lab.timing_dataset("medium", "gather") == nullptr);  // not a timing dataset
}

TEST_CASE("an int32 output compared exactly, and a float one whose terms are a constant") {
  test::TempDir tmp;
  json j = real_lab();
  j["outputs"]["potential"]["tolerance"]["terms"] = 1;
  j["outputs"]["count"] = {{"dtype", "int32"}, {"tolerance", {{"model", "exact"}}}};
  const fs::path file = tmp / "labs" / "scatter-gather" / "lab.json";
  test::write_file(file, j.dump());
  const LabConfig lab = LabConfig::load(file);
  const auto& potential = lab.outputs.at("potential");
  CHECK(potential.tolerance.terms_constant == 1);
  CHECK_FALSE(potential.tolerance.exact());
  const auto& count = lab.outputs.at("count");
  CHECK(count.dtype == "int32");
  CHECK(count.tolerance.exact());
}

TEST_CASE("a tolerance's terms: a dataset parameter, or a per-element array of the oracle") {
  gpulab::ToleranceSpec t;
  t.terms = "n_atoms";
  CHECK_FALSE(t.per_element_terms());
  t.terms = "expected:potential_terms";
  CHECK(t.per_element_terms());
  CHECK(t.terms_file() == "potential_terms");
}

TEST_CASE("a prefix sum's terms: \"prefix\", restarted at the heads an input array gives") {
  test::TempDir tmp;
  json j = real_lab();
  j["outputs"]["potential"]["tolerance"]["terms"] = "prefix";
  j["outputs"]["potential"]["tolerance"]["heads"] = "flags";
  const fs::path file = tmp / "labs" / "scatter-gather" / "lab.json";
  test::write_file(file, j.dump());
  const auto& tol = LabConfig::load(file).outputs.at("potential").tolerance;
  CHECK(tol.prefix_terms());
  CHECK_FALSE(tol.per_element_terms());
  CHECK(tol.heads == "flags");
  CHECK(tol.terms_constant == 0);
}

TEST_CASE("a segment_sets output names two other int32 outputs for its segments") {
  test::TempDir tmp;
  json j = real_lab();
  j["outputs"]["start"] = {{"dtype", "int32"}, {"tolerance", {{"model", "exact"}}}};
  j["outputs"]["count"] = {{"dtype", "int32"}, {"tolerance", {{"model", "exact"}}}};
  j["outputs"]["index"] = {
      {"dtype", "int32"},
      {"tolerance", {{"model", "segment_sets"}, {"starts", "start"}, {"counts", "count"}}}};
  const fs::path file = tmp / "labs" / "scatter-gather" / "lab.json";
  test::write_file(file, j.dump());
  {
    const LabConfig lab = LabConfig::load(file);
    const auto& t = lab.outputs.at("index").tolerance;
    CHECK(t.segment_sets());
    CHECK_FALSE(t.exact());
    CHECK(t.starts == "start");
    CHECK(t.counts == "count");
    CHECK(t.segment_noun == "segment");
    CHECK(t.segment_shape.empty());
  }
  j["outputs"]["index"]["tolerance"]["segment"] = "cell";
  j["outputs"]["index"]["tolerance"]["segment_shape"] = {"nz", "ny", "nx"};
  test::write_file(file, j.dump());
  {
    const LabConfig lab = LabConfig::load(file);
    const auto& t = lab.outputs.at("index").tolerance;
    CHECK(t.segment_noun == "cell");
    CHECK(t.segment_shape == std::vector<std::string>{"nz", "ny", "nx"});
  }

  struct Broken {
    const char* what;
    std::function<void(json&)> mutate;
    std::vector<std::string> message_has;
  };
  const std::vector<Broken> cases = {
      {"on a float output",
       [](json& x) { x["outputs"]["index"]["dtype"] = "float32"; },
       {"outputs.index.tolerance.model", "int32 outputs only"}},
      {"without counts",
       [](json& x) { x["outputs"]["index"]["tolerance"].erase("counts"); },
       {"outputs.index.tolerance", "missing \"counts\""}},
      {"starts naming no output",
       [](json& x) { x["outputs"]["index"]["tolerance"]["starts"] = "begin"; },
       {"outputs.index.tolerance.starts", "\"begin\" is not another int32 output"}},
      {"counts naming a float output",
       [](json& x) { x["outputs"]["index"]["tolerance"]["counts"] = "potential"; },
       {"outputs.index.tolerance.counts", "\"potential\""}},
      {"starts naming itself",
       [](json& x) { x["outputs"]["index"]["tolerance"]["starts"] = "index"; },
       {"outputs.index.tolerance.starts", "\"index\""}},
      {"a segment shape that is not a list of names",
       [](json& x) { x["outputs"]["index"]["tolerance"]["segment_shape"] = "nx"; },
       {"outputs.index.tolerance.segment_shape"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    json broken = j;
    c.mutate(broken);
    const std::string msg = load_error(tmp, broken.dump(2));
    INFO(msg);
    for (const auto& part : c.message_has) CHECK(contains(msg, part));
  }
}
