// An unknown lab, part, dataset or lab.json key: the message suggests the nearest valid name
// and lists them all (grader/text/nearest_name.h).
#include "text/nearest_name.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/grade_scope.h"
#include "lab/lab_config.h"

namespace {

const std::vector<std::string> kParts = {"exclusive", "inclusive", "exclusive-float"};

TEST_CASE("a typo gets the nearest name; a name far from all gets none") {
  CHECK(gpulab::nearest_name("exclsuive", kParts) == "exclusive");  // swapped pair
  CHECK(gpulab::nearest_name("inclusiv", kParts) == "inclusive");   // a letter missing
  CHECK(gpulab::nearest_name("exclusive-flot", kParts) == "exclusive-float");
  CHECK(gpulab::nearest_name("histogram", kParts).empty());
  CHECK(gpulab::nearest_name("", kParts).empty());
}

TEST_CASE("the message names the unknown name, the suggestion and every valid name") {
  const std::string m = gpulab::unknown_name("part", "exclsuive", kParts);
  CHECK(m ==
        "no part \"exclsuive\" (did you mean \"exclusive\"?); the parts are: exclusive, "
        "inclusive, exclusive-float");
  CHECK(gpulab::unknown_name("part", "histogram", kParts).find("did you mean") ==
        std::string::npos);
  CHECK(gpulab::unknown_name("dataset", "x", {}) == "no dataset \"x\"; there are no datasets");
}

TEST_CASE("a misspelt lab is refused with the labs of the tree, never read from outside it") {
  const std::string source = GPULAB_TEST_SOURCE_DIR;
  CHECK(gpulab::LabConfig::load_id(source, "scan").id == "scan");
  for (const char* id : {"scna", "../labs/scan", "scan/../scan", ""}) {
    CAPTURE(id);
    try {
      gpulab::LabConfig::load_id(source, id);
      FAIL("loaded an unknown lab");
    } catch (const gpulab::LabConfigError& e) {
      const std::string m = e.what();
      CHECK(m.find("no lab \"" + std::string(id) + "\"") == 0);
      CHECK(m.find("the labs are: ") != std::string::npos);
      CHECK(m.find("scatter-gather") != std::string::npos);
    }
  }
  const std::string m = [&] {
    try {
      gpulab::LabConfig::load_id(source, "scna");
    } catch (const gpulab::LabConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK(m.find("(did you mean \"scan\"?)") != std::string::npos);
}

TEST_CASE("the datasets --dataset may name are those of the selected parts on this backend") {
  const gpulab::LabConfig lab =
      gpulab::LabConfig::load_id(GPULAB_TEST_SOURCE_DIR, "scatter-gather");
  gpulab::GradeScope scope;
  scope.backend = gpulab::Backend::sim;
  scope.include_hidden = false;  // gpulab run
  const std::vector<std::string> names = gpulab::dataset_names(lab, scope);
  REQUIRE_FALSE(names.empty());
  for (const auto& g : lab.groups)
    for (const auto& ds : g.datasets) {
      CAPTURE(ds.name);
      const bool listed = std::find(names.begin(), names.end(), ds.name) != names.end();
      if (g.hidden || !g.on_backend(gpulab::Backend::sim)) {
        // Listed only where another group that runs here has a dataset of that name.
        bool elsewhere = false;
        for (const auto& h : lab.groups)
          if (!h.hidden && h.on_backend(gpulab::Backend::sim))
            for (const auto& other : h.datasets) elsewhere |= other.name == ds.name;
        CHECK(listed == elsewhere);
      } else {
        CHECK(listed);
      }
    }
  scope.include_hidden = true;
  CHECK(gpulab::dataset_names(lab, scope).size() > names.size());
}

}  // namespace
