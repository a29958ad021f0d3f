#include "lab/library_policy.h"

#include <algorithm>

#include "lab/lab_json_reader.h"
#include "lab/lab_schema.h"
#include "lab/library_work.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace {

bool names(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// A list of kinds at `where`: each known, each once.
std::vector<std::string> kinds(const nlohmann::json& section, const std::string& key,
                               const LabJsonReader& r) {
  const std::string where = "library." + key;
  const std::vector<std::string> list = r.strings(section[key], where);
  for (size_t i = 0; i < list.size(); ++i) {
    if (!library_work_named(list[i]))
      r.fail(where, unknown_name("kind of library work", list[i], library_work_names()));
    if (names({list.begin(), list.begin() + i}, list[i]))
      r.fail(where, "names \"" + list[i] + "\" twice");
  }
  return list;
}

}  // namespace

bool LibraryPolicy::forbids(const LibraryWork& kind) const {
  return names(forbidden, kind.name);
}

bool LibraryPolicy::allows(const LibraryWork& kind) const {
  return names(allowed, kind.name);
}

LibraryPolicy parse_library_policy(const nlohmann::json& section, const LabJsonReader& r) {
  r.only_keys(section, "library", schema_keys("/properties/library"));
  LibraryPolicy p;
  r.field(section, "forbidden_work", "library");
  p.forbidden = kinds(section, "forbidden_work", r);
  if (p.forbidden.empty()) r.fail("library.forbidden_work", "must name at least one kind");
  if (section.contains("allowed_work")) p.allowed = kinds(section, "allowed_work", r);
  for (const std::string& k : p.allowed)
    if (names(p.forbidden, k))
      r.fail("library.allowed_work", "\"" + k + "\" is forbidden_work too");
  p.why = r.str(section, "why", "library");
  return p;
}

}  // namespace gpulab
