#include "build/startup_policy.h"

#include <sstream>

#include "text/text_edits.h"

namespace gpulab {

namespace {

// sim/runtime/settings.h's gpulab_sim::detail::reload_settings(), mangled.
constexpr const char* kReloadSettings = "_ZN10gpulab_sim6detail15reload_settingsEv";

// Why a section would run code before the runtime's settings are read; "" when it would not.
std::string early_section(const ElfSection& s) {
  if (starts_with(s.name, ".init_array.") || starts_with(s.name, ".ctors."))
    return "a constructor or static object with a priority (section " + s.name + ")";
  if (s.name == ".preinit_array" || s.type == "PREINIT_ARRAY")
    return "a function run before every constructor (section " + s.name + ")";
  if (s.name == ".init") return "code in the program's start-up function (section .init)";
  if (s.type == "INIT_ARRAY" && s.name != ".init_array")
    return "an array of start-up functions under a name of its own (section " + s.name + ")";
  return "";
}

}  // namespace

std::vector<ElfSection> parse_readelf_sections(const std::string& readelf_output) {
  std::vector<ElfSection> sections;
  std::istringstream in(readelf_output);
  for (std::string line; std::getline(in, line);) {
    // "  [ 5] .init_array.00101 INIT_ARRAY 0000000000000000 000060 000008 08  WA  0   0  8"
    const size_t open = line.find_first_not_of(' ');
    const size_t close = line.find(']');
    if (open == std::string::npos || line[open] != '[' || close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 1));
    ElfSection s;
    if (fields >> s.name >> s.type) sections.push_back(s);
  }
  return sections;
}

std::vector<std::string> startup_findings(const std::vector<ElfSection>& sections,
                                          const std::vector<NmSymbol>& symbols) {
  std::vector<std::string> found;
  for (const ElfSection& s : sections)
    if (const std::string why = early_section(s); !why.empty()) found.push_back(why);
  for (const NmSymbol& s : symbols) {
    if (s.type == 'i')
      found.push_back("an indirect function, resolved while the program loads (" + s.name + ")");
    if (s.name == kReloadSettings)
      found.push_back("a call of the CPU backend's own gpulab_sim::detail::reload_settings()");
  }
  return found;
}

std::string describe_startup_findings(const std::string& file,
                                      const std::vector<std::string>& findings) {
  std::string list;
  for (const std::string& f : findings) list += (list.empty() ? "" : "; ") + f;
  return file +
         " has code that would run before gpulab's CPU backend reads its settings, or "
         "change them (" +
         list +
         "). Remove it: ordinary constructors and static initializers "
         "are fine.";
}

}  // namespace gpulab
