// lab.json's "library": what library code a student's files may bring in, by the work it does
// (library_work.def's kinds), not by the names it is called with:
//   "library": {"allowed_work": ["sort"], "forbidden_work": ["scan", "histogram", ...],
//               "why": "what the lab asks the student to write instead"}
// A header of a forbidden kind that a student's file includes, directly or through headers
// that are not of allowed kinds, refuses the build; so does an object that calls a forbidden
// kind's device-wide entry points, however its source spells them (library_rule.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

class LabJsonReader;
struct LibraryWork;

struct LibraryPolicy {
  std::vector<std::string> allowed, forbidden;  // kinds' names, in lab.json's order
  std::string why;                              // for the student

  // No "library" section: nothing is checked.
  bool empty() const { return forbidden.empty(); }
  bool forbids(const LibraryWork& kind) const;
  bool allows(const LibraryWork& kind) const;
};

// Parses lab.json's "library" (at `where`): known kinds, each once, none both allowed and
// forbidden, at least one forbidden, and a why.
LibraryPolicy parse_library_policy(const nlohmann::json& section, const LabJsonReader& r);

}  // namespace gpulab
