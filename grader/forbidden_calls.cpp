#include "forbidden_calls.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "lab_json_reader.h"

namespace gpulab {

namespace {

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Where `name` occurs in `symbol` as a whole qualified name or its start: not inside a longer
// identifier, followed by a scope, template arguments, a parameter list or nothing. An
// enclosing scope is allowed: CUB_WRAPPED_NAMESPACE puts CUB inside a namespace of the user's.
bool names_entity(const std::string& symbol, const std::string& name) {
  for (size_t at = symbol.find(name); at != std::string::npos; at = symbol.find(name, at + 1)) {
    const bool starts = at == 0 || !identifier_char(symbol[at - 1]);
    const size_t end = at + name.size();
    const bool ends = end == symbol.size() || !identifier_char(symbol[end]);
    if (starts && ends) return true;
  }
  return false;
}

// The longest a symbol is quoted in a message: CUB's instantiations run to thousands of
// characters.
constexpr size_t kSymbolQuoted = 160;

}  // namespace

ForbiddenCalls parse_forbidden_calls(const nlohmann::json& calls, const LabJsonReader& r) {
  r.only_keys(calls, "forbidden_calls", {"why", "names"});
  static const std::regex qualified("[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+");
  ForbiddenCalls c{r.strings(r.field(calls, "names", "forbidden_calls"), "forbidden_calls.names"),
                   r.str(calls, "why", "forbidden_calls")};
  if (c.names.empty()) r.fail("forbidden_calls.names", "must name at least one entity");
  for (size_t i = 0; i < c.names.size(); ++i) {
    if (!std::regex_match(c.names[i], qualified))
      r.fail("forbidden_calls.names",
             "\"" + c.names[i] + "\" is not a qualified C++ name (ns::Name)");
    if (std::find(c.names.begin(), c.names.begin() + i, c.names[i]) != c.names.begin() + i)
      r.fail("forbidden_calls.names", "names \"" + c.names[i] + "\" twice");
  }
  if (c.why.empty()) r.fail("forbidden_calls.why", "must say what the student writes instead");
  return c;
}

std::string without_version_namespaces(const std::string& demangled) {
  // The namespace around a versioned one is CUB's or Thrust's whatever a macro renamed it to
  // (#define cub x before the headers).
  static const std::regex cub("\\b[A-Za-z_][A-Za-z0-9_]*::CUB_[0-9]+(_SM_[0-9_]+)?::");
  static const std::regex thrust("\\b[A-Za-z_][A-Za-z0-9_]*::THRUST_[0-9]+(_SM_[0-9_]+)?_NS::");
  return std::regex_replace(std::regex_replace(demangled, cub, "cub::"), thrust, "thrust::");
}

bool may_name_cccl(const std::string& mangled) {
  for (const char* mark : {"3cub", "6thrust", "CUB_", "THRUST_"})
    if (mangled.find(mark) != std::string::npos) return true;
  return false;
}

std::vector<ForbiddenUse> forbidden_uses(const std::vector<std::string>& demangled,
                                         const ForbiddenCalls& calls) {
  std::vector<ForbiddenUse> uses;
  std::vector<bool> found(calls.names.size(), false);
  for (const auto& raw : demangled) {
    const std::string symbol = without_version_namespaces(raw);
    for (size_t i = 0; i < calls.names.size(); ++i)
      if (!found[i] && names_entity(symbol, calls.names[i])) {
        found[i] = true;
        uses.push_back({calls.names[i], symbol});
      }
  }
  return uses;
}

std::string describe_forbidden_uses(const std::string& file, const std::vector<ForbiddenUse>& uses,
                                    const ForbiddenCalls& calls) {
  if (uses.empty()) return "";
  std::string message = file + " uses library code this lab does not allow (" + calls.why + "):\n";
  for (const ForbiddenUse& use : uses) {
    std::string symbol = use.symbol;
    if (symbol.size() > kSymbolQuoted) symbol = symbol.substr(0, kSymbolQuoted) + "...";
    message += "  " + use.name + ", in " + symbol + "\n";
  }
  return message;
}

}  // namespace gpulab
