// The loader's key lists come from labs/lab.schema.json, compiled in (grader/lab/lab_schema.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "lab/lab_schema.h"

namespace {

using gpulab::schema_keys;

bool has(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

TEST_CASE("the compiled-in schema is the tree's labs/lab.schema.json") {
  std::ifstream in(std::string(GPULAB_TEST_SOURCE_DIR) + "/labs/lab.schema.json");
  REQUIRE(in);
  CHECK(gpulab::lab_schema() == nlohmann::json::parse(in));
}

TEST_CASE("an object's keys are its properties, and those of the definition it refers to") {
  const auto group = schema_keys("/$defs/group");
  CHECK(has(group, "backends"));
  CHECK(has(group, "datasets"));
  CHECK_FALSE(has(group, "seeded_by_instructor"));
  const auto timing = schema_keys("/$defs/timing");
  CHECK(has(timing, "work"));    // its own
  CHECK(has(timing, "warmup"));  // timing_values', by $ref
  const auto top = schema_keys("");
  CHECK(has(top, "dataset_groups"));
  CHECK(has(top, "$schema"));
}

TEST_CASE("a pointer the schema does not describe an object at is the loader's error, said") {
  CHECK_THROWS_AS(schema_keys("/$defs/no_such_thing"), std::logic_error);
  CHECK_THROWS_AS(schema_keys("/$defs/name"), std::logic_error);  // a string, not an object
}

}  // namespace
