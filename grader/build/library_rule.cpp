#include "build/library_rule.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <sstream>

namespace gpulab {

namespace {

// The longest a symbol is quoted in a message: CUB's instantiations run to thousands of
// characters.
constexpr size_t kSymbolQuoted = 160;

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Whether `name` occurs in `symbol` as a whole name: not inside a longer identifier.
bool names_entity(const std::string& symbol, const std::string& name) {
  for (size_t at = symbol.find(name); at != std::string::npos; at = symbol.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !identifier_char(symbol[at - 1])) &&
        (end == symbol.size() || !identifier_char(symbol[end])))
      return true;
  }
  return false;
}

// Whether `kinds` are all allowed: a header of such kinds shields what it includes.
bool all_allowed(const std::vector<const LibraryWork*>& kinds, const LibraryPolicy& policy) {
  if (kinds.empty()) return false;
  for (const LibraryWork* k : kinds)
    if (!policy.allows(*k)) return false;
  return true;
}

// A header as a message names it: the library's path of it, or the path the compiler opened.
std::string shown_header(const std::string& path) {
  const std::string library = library_header(path);
  return library.empty() ? path : library;
}

// The lines of `source` that name, in an #include, the header the compiler opened at `path`:
// the first whose name is the end of the path, or the library's same header. Only for messages: the
// list of headers comes from the compiler, and a name made by a macro is found nowhere here.
int include_line(const std::string& source, const std::string& path) {
  static const std::regex include(
      R"(^\s*(#|%:)\s*(include|include_next|import)\s*[<"]([^>"]+)[>"])");
  const std::string opened = std::filesystem::path(path).lexically_normal().generic_string();
  std::istringstream in(source);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::smatch m;
    if (!std::regex_search(line, m, include)) continue;
    const std::string named = std::filesystem::path(m[3].str()).lexically_normal().generic_string();
    const bool same_library =
        !library_header(named).empty() && library_header(named) == library_header(path);
    const bool tail = opened == named ||
                      (opened.size() > named.size() &&
                       opened.compare(opened.size() - named.size(), named.size(), named) == 0 &&
                       opened[opened.size() - named.size() - 1] == '/');
    if (same_library || tail) return number;
  }
  return 0;
}

std::string lead(const std::string& file, const LibraryPolicy& policy) {
  return file + " uses library code this lab does not allow (" + policy.why + "):\n";
}

}  // namespace

std::vector<HeaderFinding> forbidden_headers(const std::vector<IncludedHeader>& tree,
                                             const LibraryPolicy& policy,
                                             const std::string& source) {
  std::vector<HeaderFinding> findings;
  // The open headers from the file down: their depth, whether what they include is judged
  // (not under an allowed header, nor under a forbidden one already found), and the file's own
  // include they are under.
  struct Open {
    int depth;
    bool judged;
    size_t top;
  };
  std::vector<Open> open;
  for (size_t i = 0; i < tree.size(); ++i) {
    const IncludedHeader& h = tree[i];
    while (!open.empty() && open.back().depth >= h.depth) open.pop_back();
    const bool judged = open.empty() || open.back().judged;
    const size_t top = open.empty() ? i : open.back().top;
    const std::vector<const LibraryWork*> kinds = work_of_header(library_header(h.path));
    bool forbidden = false;
    if (judged)
      for (const LibraryWork* k : kinds) {
        if (!policy.forbids(*k)) continue;
        forbidden = true;
        const std::string included = shown_header(tree[top].path);
        const bool said = std::any_of(findings.begin(), findings.end(), [&](const auto& f) {
          return f.included == included && f.kind == k;
        });
        if (!said)
          findings.push_back(
              {included, include_line(source, tree[top].path), shown_header(h.path), k});
      }
    open.push_back({h.depth, judged && !forbidden && !all_allowed(kinds, policy), top});
  }
  return findings;
}

std::string without_version_namespaces(const std::string& demangled) {
  static const std::regex cub("::CUB_[0-9]+(_SM_[0-9_]+)?::");
  static const std::regex thrust("::THRUST_[0-9]+(_SM_[0-9_]+)?_NS::");
  return std::regex_replace(std::regex_replace(demangled, cub, "::"), thrust, "::");
}

bool may_name_forbidden(const std::string& mangled, const LibraryPolicy& policy) {
  for (const LibraryWork& k : library_work())
    if (policy.forbids(k))
      for (const std::string& e : k.entities)
        if (mangled.find(e) != std::string::npos) return true;
  return false;
}

std::vector<ForbiddenUse> forbidden_uses(const std::vector<std::string>& demangled,
                                         const LibraryPolicy& policy) {
  // The entities to look for: a forbidden kind's, less those an allowed kind lists too.
  std::vector<std::pair<const LibraryWork*, std::string>> wanted;
  for (const LibraryWork& k : library_work()) {
    if (!policy.forbids(k)) continue;
    for (const std::string& e : k.entities) {
      bool also_allowed = false;
      for (const LibraryWork& a : library_work())
        if (policy.allows(a) && std::count(a.entities.begin(), a.entities.end(), e))
          also_allowed = true;
      if (!also_allowed) wanted.push_back({&k, e});
    }
  }
  std::vector<ForbiddenUse> uses;
  std::vector<bool> found(wanted.size(), false);
  for (const auto& raw : demangled) {
    const std::string symbol = without_version_namespaces(raw);
    for (size_t i = 0; i < wanted.size(); ++i)
      if (!found[i] && names_entity(symbol, wanted[i].second)) {
        found[i] = true;
        uses.push_back({wanted[i].first, wanted[i].second, symbol});
      }
  }
  return uses;
}

std::string describe_forbidden_headers(const std::string& file,
                                       const std::vector<HeaderFinding>& findings,
                                       const LibraryPolicy& policy) {
  if (findings.empty()) return "";
  std::string message = lead(file, policy);
  for (const HeaderFinding& f : findings) {
    message += "  " + (f.line ? "line " + std::to_string(f.line) + ": " : std::string()) + "<" +
               f.included + ">" + (f.line ? "" : " (included through a macro?)");
    if (f.header != f.included) message += " brings in <" + f.header + ">";
    message += ", " + f.kind->what + "\n";
  }
  return message;
}

std::string describe_forbidden_uses(const std::string& file, const std::vector<ForbiddenUse>& uses,
                                    const LibraryPolicy& policy) {
  if (uses.empty()) return "";
  std::string message = lead(file, policy);
  for (const ForbiddenUse& use : uses) {
    std::string symbol = use.symbol;
    if (symbol.size() > kSymbolQuoted) symbol = symbol.substr(0, kSymbolQuoted) + "...";
    message += "  " + use.entity + ", " + use.kind->what + ", in " + symbol + "\n";
  }
  return message;
}

std::string describe_line_markers(const std::string& file, const std::vector<int>& lines) {
  if (lines.empty()) return "";
  std::string where;
  for (size_t i = 0; i < lines.size() && i < 5; ++i)
    where += (i ? ", " : "") + std::to_string(lines[i]);
  if (lines.size() > 5) where += ", ...";
  return file + " holds a line marker (a line `# <number> \"<file>\"`), on line" +
         (lines.size() > 1 ? "s " : " ") + where +
         ": it makes the compiler say it reads another file, and gpulab checks the library code "
         "a file uses by the headers the compiler reads, so it does not build one that holds "
         "a line marker (one in a comment or an #if 0 block counts too). Remove it.\n";
}

}  // namespace gpulab
