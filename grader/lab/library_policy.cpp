#include "lab/library_policy.h"

#include <algorithm>

#include "lab/lab_json_reader.h"
#include "lab/library_work.h"
#include "text/nearest_name.h"

namespace gpulab {

namespace {

bool names(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// A list of kinds at `where`, each a kind of library_work.def's table (the schema checked the
// rest: a list of names, each once).
std::vector<std::string> kinds(const nlohmann::json& section, const std::string& key,
                               const LabJsonReader& r) {
  const std::vector<std::string> list = section.value(key, std::vector<std::string>{});
  for (const std::string& kind : list)
    if (!library_work_named(kind))
      r.fail("library." + key, unknown_name("kind of library work", kind, library_work_names()));
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
  LibraryPolicy p;
  p.forbidden = kinds(section, "forbidden_work", r);
  p.allowed = kinds(section, "allowed_work", r);
  for (const std::string& k : p.allowed)
    if (names(p.forbidden, k))
      r.fail("library.allowed_work", "\"" + k + "\" is forbidden_work too");
  p.why = section.at("why").get<std::string>();
  return p;
}

}  // namespace gpulab
