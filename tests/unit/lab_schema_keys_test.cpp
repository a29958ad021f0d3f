// labs/lab.schema.json, compiled in (grader/lab/lab_schema.h): the schema gpulab checks every
// lab.json against, whose lists of names agree with the tables in gpulab's code.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "backend_words.h"
#include "lab/lab_schema.h"
#include "lab/sanitizer_tools.h"

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

// The loader converts names the schema let through by the code's tables: the two lists must be
// one (a name only the schema had would reach the loader and fail there without a message).
TEST_CASE("the schema's backends and compute-sanitizer tools are gpulab's") {
  const nlohmann::json& schema = gpulab::lab_schema();
  const auto backends = schema["/$defs/group/properties/backends/items/enum"_json_pointer]
                            .get<std::vector<std::string>>();
  CHECK(backends == gpulab::backend_names());
  const auto tools = schema["/properties/sanitize/properties/tools/items/enum"_json_pointer]
                         .get<std::vector<std::string>>();
  CHECK(tools == gpulab::sanitizer_tools());
}

}  // namespace
