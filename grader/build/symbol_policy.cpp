#include "build/symbol_policy.h"

#include <cctype>
#include <optional>
#include <sstream>

namespace gpulab {

namespace {

bool is_c_linkage(const std::string& symbol) {
  return symbol.rfind("_Z", 0) != 0;
}

bool is_function(char nm_type) {
  return nm_type == 'T' || nm_type == 't' || nm_type == 'W' || nm_type == 'i';
}

// The compiler's own: the pointer to the exception personality routine (or to a caught type's
// typeinfo) that every object with exception handling carries, weak and hidden, so it never
// stands in for a library's symbol.
bool is_compiler_generated(const std::string& symbol, Binding binding) {
  return binding == Binding::weak && symbol.rfind("DW.ref.", 0) == 0;
}

// Whether a submission's definition with binding `mine` may coexist with `theirs`.
bool refused(const std::string& symbol, Binding mine, Binding theirs, bool linked_first) {
  if (mine == Binding::strong) return true;
  // A unique definition meets only unique ones of the same static local or member.
  if (mine == Binding::unique || theirs == Binding::unique) return mine != theirs;
  if (theirs == Binding::strong) return true;
  // Both weak: the library's copy is kept where it is linked first; elsewhere a C++ name is a
  // copy of a header's inline function or template, and a C name is a replacement.
  return !linked_first && is_c_linkage(symbol);
}

}  // namespace

std::vector<NmSymbol> parse_nm(const std::string& nm_output) {
  std::vector<NmSymbol> symbols;
  std::istringstream in(nm_output);
  for (std::string line; std::getline(in, line);) {
    const size_t space = line.find(' ');
    // "name T value size", "name U": the type is one letter after the name.
    if (space == 0 || space == std::string::npos || space + 1 >= line.size()) continue;
    if (space + 2 < line.size() && line[space + 2] != ' ') continue;
    std::string name = line.substr(0, space);
    name = name.substr(0, name.find('@'));  // "clock_gettime@@GLIBC_2.17": the same name
    if (name.empty()) continue;
    symbols.push_back({name, line[space + 1]});
  }
  return symbols;
}

Binding binding_of(char nm_type) {
  switch (nm_type) {
    case 'W':
    case 'V':
      return Binding::weak;
    case 'u':
      return Binding::unique;
    case 'i':  // an indirect function, resolved when the program loads: global
    case '?':  // unknown to nm: counted as the strongest, so that nothing slips through
      return Binding::strong;
    case 'U':  // undefined
    case 'w':  // weak undefined
    case 'v':
    case 'N':  // debugging
      return Binding::none;
    default:
      // Upper case is global; lower case is local to its object.
      return std::isupper(static_cast<unsigned char>(nm_type)) ? Binding::strong : Binding::none;
  }
}

std::set<std::string> interface_names(const std::vector<NmSymbol>& driver_symbols,
                                      const std::vector<LinkedLibrary>& libraries) {
  std::set<std::string> needed;
  for (const NmSymbol& s : driver_symbols)
    if (s.type == 'U') needed.insert(s.name);
  for (const LinkedLibrary& lib : libraries)
    for (const NmSymbol& s : lib.symbols)
      if (binding_of(s.type) != Binding::none) needed.erase(s.name);
  return needed;
}

bool names_gpulab(const std::string& symbol) {
  if (is_c_linkage(symbol)) return false;
  // In a mangled name an identifier is its length and its letters: "6gpulab", where the 6 is
  // not the end of a longer length ("16gpulab_whatever" is another identifier).
  for (size_t at = symbol.find("gpulab"); at != std::string::npos;
       at = symbol.find("gpulab", at + 1))
    if (at >= 1 && symbol[at - 1] == '6' &&
        (at < 2 || !std::isdigit(static_cast<unsigned char>(symbol[at - 2]))))
      return true;
  return false;
}

SymbolPolicy::SymbolPolicy(const std::vector<LinkedLibrary>& libraries,
                           std::set<std::string> interface)
    : interface_(std::move(interface)) {
  for (size_t i = 0; i < libraries.size(); ++i) {
    libraries_.push_back({libraries[i].description, libraries[i].linked_first, {}});
    for (const NmSymbol& s : libraries[i].symbols) {
      const Binding b = binding_of(s.type);
      if (b != Binding::none) defined_[s.name].push_back({i, b, is_function(s.type)});
    }
  }
}

std::vector<SymbolFinding> SymbolPolicy::check(const std::vector<NmSymbol>& object_symbols) const {
  std::vector<SymbolFinding> findings;
  std::set<std::string> seen;
  for (const NmSymbol& s : object_symbols) {
    const Binding mine = binding_of(s.type);
    if (mine == Binding::none || is_compiler_generated(s.name, mine)) continue;
    if (interface_.count(s.name) || !seen.insert(s.name).second) continue;
    const auto it = defined_.find(s.name);
    const std::vector<Definition> none;
    const std::vector<Definition>& theirs = it != defined_.end() ? it->second : none;
    std::optional<SymbolFinding> finding;
    for (const Definition& d : theirs)
      if (refused(s.name, mine, d.binding, libraries_[d.library].linked_first)) {
        finding = {s.name, libraries_[d.library].description, d.function};
        break;
      }
    if (!finding && names_gpulab(s.name))
      finding = theirs.empty() ? SymbolFinding{s.name, "gpulab's harness", is_function(s.type)}
                               : SymbolFinding{s.name, libraries_[theirs[0].library].description,
                                               theirs[0].function};
    if (finding) findings.push_back(*finding);
  }
  return findings;
}

std::string describe_finding(const std::string& file, const std::string& shown,
                             const SymbolFinding& finding, const std::string& interface_header) {
  return file + " defines " + shown + ", a " + (finding.function ? "function" : "variable") +
         " of " + finding.library + "; a submission may define only the functions of " +
         interface_header + " and names of its own. Rename it.";
}

}  // namespace gpulab
