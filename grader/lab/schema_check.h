// lab.json checked against labs/lab.schema.json itself (lab_schema.h): the schema is the one
// statement of what each key of a lab.json may hold (its type, its range, its pattern, which keys
// exist and which are required), and the loader (lab_config.cpp) reads only documents that have
// passed it, checking no more than what a schema cannot state (a dataset's parts, a rubric's
// groups, a tolerance's starts and counts: the cross-references).
//
// This is the part of JSON Schema 2020-12 that the schema uses, with messages for the people who
// write lab.json: "dataset_groups[0].datasets[1].seed: must be an integer >= 0". A subschema's
// "errorMessage" (a string, or an object by keyword) words its own failures where the generic
// words would not do; "{value}" in it is the offending value. A keyword this checker does not
// implement, anywhere in the schema, is a std::logic_error at every check (every lab's load, and
// a unit test), so the schema cannot grow a rule that gpulab would silently skip.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gpulab {

struct SchemaViolation {
  std::string path;  // "dataset_groups[1].datasets[0].seed"; "lab" for the document itself
  std::string why;   // "must be an integer >= 0"
};

// The first place, in key order, where `doc` breaks `schema` (whose "$ref"s point into `schema`
// itself: "#/$defs/name"); nullopt where `doc` meets it.
std::optional<SchemaViolation> schema_violation(const nlohmann::json& schema,
                                                const nlohmann::json& doc);

}  // namespace gpulab
