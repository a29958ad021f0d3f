// labs/lab.schema.json, compiled into gpulab (CMake writes lab_schema_text.cpp from it): the one
// statement of which keys each object of a lab.json may hold. The loader's unknown-key checks
// read their lists from here, so the schema that editors and CI check lab.json against and the
// loader cannot disagree on a key (a key the schema allows is one the loader reads, and no other).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

// The schema, parsed once.
const nlohmann::json& lab_schema();

// The keys the object described at `pointer` may hold (a JSON pointer into the schema:
// "/$defs/group", "/properties/writeup"; "" for the top level): its "properties", and those of the definition its
// "$ref" names. Throws std::logic_error when the schema has no properties there (a pointer that
// went stale when the schema changed, which every load of a lab would show).
std::vector<std::string> schema_keys(const std::string& pointer);

}  // namespace gpulab
