// lab.json as a contract (grader/lab/lab_config.h, labs/lab.schema.json): loading rejects an
// unknown key at every level and a value of the wrong type, naming the key's path, and gpulab's
// own check of the schema (schema_check.h) agrees with Python's jsonschema on
// tests/lab_schema/cases.json (check_lab_schema.py runs the same cases there).
#include <doctest/doctest.h>

#include <string>

#include "lab/lab_config.h"
#include "test_util.h"

namespace {

using gpulab::LabConfig;
using nlohmann::json;
using test::contains;
namespace fs = std::filesystem;

json shipped_lab(const std::string& id) {
  return json::parse(test::read_file(test::source_dir() / "labs" / id / "lab.json"));
}

// The loader's message for `lab` (as labs/<id>/lab.json under `tmp`); "" when it loads.
std::string load_message(const test::TempDir& tmp, const json& lab) {
  const fs::path file = tmp / "labs" / lab["id"].get<std::string>() / "lab.json";
  test::write_file(file, lab.dump(2));
  try {
    LabConfig::load(file);
  } catch (const gpulab::LabConfigError& e) {
    return e.what();
  }
  return "";
}

// Where a key must be a known one: every object of lab.json but those whose keys are names
// (outputs, rubric parts, a part's rubric, which names groups) or a generator's parameters.
void objects(const json& v, const std::string& pointer, const std::string& path,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (v.is_object()) {
    const bool names =
        pointer == "/outputs" || pointer == "/rubric" ||
        (pointer.rfind("/rubric/", 0) == 0 &&
         pointer.find('/', sizeof "/rubric/" - 1) == std::string::npos) ||
        (pointer.size() >= 7 && pointer.compare(pointer.size() - 7, 7, "/params") == 0);
    if (!names) out.push_back({pointer, path});
    for (const auto& [k, e] : v.items())
      objects(e, pointer + "/" + k, path.empty() ? k : path + "." + k, out);
  } else if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i)
      objects(v[i], pointer + "/" + std::to_string(i), path + "[" + std::to_string(i) + "]", out);
  }
}

}  // namespace

TEST_CASE("lab.json: an unknown key at any level is an error naming its path") {
  test::TempDir tmp;
  size_t checked = 0;
  for (const auto& file : gpulab::find_lab_files(test::source_dir())) {
    const json lab = json::parse(test::read_file(file));
    std::vector<std::pair<std::string, std::string>> places;
    objects(lab, "", "", places);
    for (const auto& [pointer, path] : places) {
      CAPTURE(file);
      CAPTURE(pointer);
      json broken = lab;
      broken[json::json_pointer(pointer)]["zz_not_a_key"] = 1;
      const std::string msg = load_message(tmp, broken);
      const std::string key = path.empty() ? "zz_not_a_key" : path + ".zz_not_a_key";
      CHECK(contains(msg, "lab.json: " + key + ": unknown key"));
      ++checked;
    }
  }
  // Each lab has a top level, parts, groups, datasets, outputs, tolerances and a timing block.
  CHECK(checked > 6 * 7);
}

TEST_CASE("lab.json: gpulab and Python's jsonschema agree on tests/lab_schema/cases.json") {
  test::TempDir tmp;
  const json cases = json::parse(
      test::read_file(test::source_dir() / "tests" / "lab_schema" / "cases.json"))["cases"];
  REQUIRE(cases.size() > 10);
  for (const auto& c : cases) {
    CAPTURE(c["what"].get<std::string>());
    const json lab = shipped_lab(c["lab"]).patch(c["patch"]);
    const std::string msg = load_message(tmp, lab);
    if (c.value("valid", false)) {
      CHECK(msg == "");
    } else {
      INFO(msg);
      CHECK(contains(msg, c["error"].get<std::string>()));
    }
  }
}

TEST_CASE("lab.json: a typo gets the key it was meant to be") {
  test::TempDir tmp;
  json lab = shipped_lab("coarsening");
  lab["dataset_groups"][1]["seeded_by_instuctor"] = true;
  CHECK(contains(load_message(tmp, lab),
                 "labs/coarsening/lab.json: dataset_groups[1].seeded_by_instuctor: unknown key"));
  lab = shipped_lab("coarsening");
  lab["timing"]["floor_slak"] = 1.5;
  CHECK(contains(load_message(tmp, lab),
                 "timing.floor_slak: unknown key (did you mean \"floor_slack\"?)"));
  // Nothing near: no guess.
  lab = shipped_lab("coarsening");
  lab["timing"]["colour"] = 1;
  const std::string far = load_message(tmp, lab);
  CHECK(contains(far, "timing.colour: unknown key"));
  CHECK_FALSE(contains(far, "did you mean"));
}

TEST_CASE("lab.json: timing settings a schema cannot check") {
  test::TempDir tmp;
  json lab = shipped_lab("scatter-gather");
  // The CPU parts' own max_samples under the lab's min_samples, which they no longer override.
  lab["timing"]["min_samples"] = 8;
  lab["timing"]["cpu"].erase("min_samples");
  CHECK(contains(load_message(tmp, lab), "timing.cpu: max_samples 5 is below min_samples 8"));
  lab = shipped_lab("scatter-gather");
  lab["timing"]["max_samples"] = 3;
  CHECK(contains(load_message(tmp, lab), "timing: max_samples 3 is below min_samples 10"));
}
