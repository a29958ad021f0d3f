// grader/lab/schema_check.h: the part of JSON Schema that labs/lab.schema.json uses, keyword by
// keyword on small schemas, with the path and the words each failure gets. (lab_contract_test
// runs it on the real schema against the cases check_lab_schema.py gives Python's jsonschema.)
#include "lab/schema_check.h"

#include <doctest/doctest.h>

#include <stdexcept>

namespace {

using gpulab::schema_violation;
using nlohmann::json;

// "path: why" of `doc` against `schema`, or "" where it meets it.
std::string said(const json& schema, const json& doc) {
  const auto v = schema_violation(schema, doc);
  return v ? v->path + ": " + v->why : "";
}

const json kNumbers = json::parse(R"({
  "type": "object",
  "properties": {
    "count": {"type": "integer", "minimum": 1, "maximum": 10},
    "share": {"type": "number", "exclusiveMinimum": 0},
    "slack": {"type": "number", "minimum": 1},
    "flag": {"type": "boolean"}
  }
})");

TEST_CASE("schema check: types and ranges, said as what the value must be") {
  CHECK(said(kNumbers, json::parse(R"({"count": 3, "share": 0.5, "slack": 1, "flag": true})")) ==
        "");
  CHECK(said(kNumbers, {{"count", 0}}) == "count: must be an integer from 1 to 10");
  CHECK(said(kNumbers, {{"count", 11}}) == "count: must be an integer from 1 to 10");
  CHECK(said(kNumbers, {{"count", 2.5}}) == "count: must be an integer from 1 to 10");
  CHECK(said(kNumbers, {{"count", "3"}}) == "count: must be an integer from 1 to 10");
  CHECK(said(kNumbers, {{"count", 3.0}}) == "");  // 2020-12: a whole number is an integer
  CHECK(said(kNumbers, {{"share", 0}}) == "share: must be a number > 0");
  CHECK(said(kNumbers, {{"slack", 0.5}}) == "slack: must be a number >= 1");
  CHECK(said(kNumbers, {{"flag", 1}}) == "flag: must be true or false");
  CHECK(said(kNumbers, json::array()) == "lab: must be an object");
}

TEST_CASE("schema check: keys unknown, near, missing; paths through arrays") {
  const json schema = json::parse(R"({
    "type": "object",
    "required": ["groups"],
    "additionalProperties": false,
    "properties": {
      "groups": {"type": "array", "minItems": 1, "items": {
        "type": "object", "required": ["name"], "additionalProperties": false,
        "properties": {"name": {"type": "string", "minLength": 1}, "seed": {"type": "integer"}}}}
    }
  })");
  CHECK(said(schema, json::object()) == "lab: missing \"groups\"");
  CHECK(said(schema, {{"groups", json::array()}}) == "groups: must be a non-empty array");
  CHECK(said(schema, json::parse(R"({"groups": [{"name": "a"}, {"name": ""}]})")) ==
        "groups[1].name: must be a non-empty string");
  // A misspelt key is a missing one too: its name says more, so it comes first.
  CHECK(said(schema, json::parse(R"({"groups": [{"nmae": "a"}]})")) ==
        "groups[0].nmae: unknown key (did you mean \"name\"?)");
  CHECK(said(schema, json::parse(R"({"groups": [{"name": "a"}], "colour": 1})")) ==
        "colour: unknown key");
}

TEST_CASE("schema check: enums, patterns, unique items, errorMessage") {
  const json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "device": {"enum": ["gpu", "cpu"]},
      "tools": {"type": "array", "minItems": 1, "uniqueItems": true,
                "items": {"enum": ["memcheck", "racecheck"]},
                "errorMessage": {"minItems": "must name at least one tool"}},
      "file": {"type": "string", "pattern": "^[^/]+$"},
      "define": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
                 "errorMessage": {"pattern": "{value} is not a C identifier"}},
      "share": {"type": "number", "exclusiveMinimum": 0, "maximum": 1,
                "errorMessage": "must be a fraction in (0, 1]"}
    }
  })");
  CHECK(said(schema, {{"device", "gpu"}}) == "");
  CHECK(said(schema, {{"device", "gpuu"}}) ==
        "device: must be \"gpu\" or \"cpu\", not \"gpuu\" (did you mean \"gpu\"?)");
  CHECK(said(schema, {{"device", 3}}) == "device: must be \"gpu\" or \"cpu\", not 3");
  CHECK(said(schema, {{"tools", json::array()}}) == "tools: must name at least one tool");
  CHECK(said(schema, {{"tools", {"racecheck", "racecheck"}}}) ==
        "tools: names \"racecheck\" twice");
  CHECK(said(schema, {{"tools", {"memchek"}}}) ==
        "tools[0]: must be \"memcheck\" or \"racecheck\", not \"memchek\" (did you mean "
        "\"memcheck\"?)");
  CHECK(said(schema, {{"file", "a/b"}}) == "file: \"a/b\" does not match \"^[^/]+$\"");
  CHECK(said(schema, {{"define", "C=8"}}) == "define: \"C=8\" is not a C identifier");
  CHECK(said(schema, {{"define", "C_8"}}) == "");
  // A string errorMessage words every failure of its subschema's own keywords.
  CHECK(said(schema, {{"share", 2}}) == "share: must be a fraction in (0, 1]");
  CHECK(said(schema, {{"share", "half"}}) == "share: must be a fraction in (0, 1]");
}

TEST_CASE("schema check: $ref, allOf with if/then, oneOf, unevaluatedProperties") {
  const json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "tolerance": {"$ref": "#/$defs/tolerance"},
      "terms": {"oneOf": [{"type": "number", "minimum": 1}, {"$ref": "#/$defs/name"}]},
      "sweep": {"type": "object", "oneOf": [{"required": ["param"]}, {"required": ["define"]}]},
      "timing": {"type": "object", "$ref": "#/$defs/values", "unevaluatedProperties": false,
                 "properties": {"work": {"type": "string"}}}
    },
    "$defs": {
      "name": {"type": "string", "minLength": 1},
      "values": {"properties": {"rounds": {"type": "integer", "minimum": 1}}},
      "tolerance": {
        "type": "object", "required": ["model"],
        "properties": {"model": {"enum": ["exact", "sum"]}},
        "allOf": [
          {"if": {"properties": {"model": {"const": "exact"}}},
           "then": {"additionalProperties": false, "properties": {"model": {}}}},
          {"if": {"properties": {"model": {"const": "sum"}}},
           "then": {"required": ["K"], "additionalProperties": false,
                    "properties": {"model": {}, "K": {"type": "number"}}}}
        ]
      }
    }
  })");
  CHECK(said(schema, json::parse(R"({"tolerance": {"model": "exact"}})")) == "");
  CHECK(said(schema, json::parse(R"({"tolerance": {"model": "exact", "K": 1}})")) ==
        "tolerance.K: unknown key");
  CHECK(said(schema, json::parse(R"({"tolerance": {"model": "sum"}})")) ==
        "tolerance: missing \"K\"");
  CHECK(said(schema, json::parse(R"({"tolerance": {"model": "sum", "K": 2}})")) == "");
  CHECK(said(schema, {{"terms", 2}}) == "");
  CHECK(said(schema, {{"terms", "n"}}) == "");
  CHECK(said(schema, {{"terms", 0}}) == "terms: must be a number >= 1 or a non-empty string");
  CHECK(said(schema, {{"sweep", {{"param", "n"}}}}) == "");
  CHECK(said(schema, {{"sweep", {{"param", "n"}, {"define", "C"}}}}) ==
        "sweep: must be only one of an object with \"param\" or an object with \"define\"");
  // unevaluatedProperties: keys the $ref described count as known, and a near one is named.
  CHECK(said(schema, json::parse(R"({"timing": {"rounds": 3, "work": "n"}})")) == "");
  CHECK(said(schema, json::parse(R"({"timing": {"rounds": 0}})")) ==
        "timing.rounds: must be an integer >= 1");
  CHECK(said(schema, json::parse(R"({"timing": {"round": 3}})")) ==
        "timing.round: unknown key (did you mean \"rounds\"?)");
}

TEST_CASE("schema check: a keyword it does not implement is refused, not skipped") {
  // A rule gpulab would silently pass over: the schema may not hold it.
  CHECK_THROWS_AS(schema_violation(json::parse(R"({"maxLength": 3})"), "abcd"), std::logic_error);
  CHECK_THROWS_AS(schema_violation(json::parse(R"({"properties": {"a": {"format": "uri"}}})"),
                                   json::parse(R"({"a": "x"})")),
                  std::logic_error);
  // Anywhere in the schema, also where no document reaches: a branch not taken, a definition
  // nothing refers to.
  CHECK_THROWS_AS(
      schema_violation(json::parse(R"({"properties": {"a": {"maxItems": 2}}})"), json::object()),
      std::logic_error);
  CHECK_THROWS_AS(schema_violation(json::parse(R"({"$defs": {"unused": {"format": "uri"}}})"), 1),
                  std::logic_error);
  // A property named like a keyword is a name, not a keyword.
  CHECK(said(json::parse(R"({"properties": {"format": {"type": "string"}}})"),
             json::parse(R"({"format": "x"})")) == "");
  CHECK_THROWS_AS(schema_violation(json::parse(R"({"$ref": "#/$defs/none"})"), 1),
                  std::logic_error);
}

}  // namespace
