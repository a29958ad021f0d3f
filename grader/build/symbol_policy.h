// Which global symbols a submission's object files may define. The runner is one program: a
// student's definition of a name that a library it links also defines can stand in for the
// library's (clock_gettime, cudaEventElapsedTime, the harness's own timing functions), and the
// harness would then time itself with the student's clock. So a submission may define the
// functions the lab's driver calls and names of its own, nothing a linked library defines.
//
// Weak definitions need care: inline functions and template instantiations from standard
// headers are weak in every object that uses them, and some coincide with what libstdc++ or the
// harness define too. Those are copies of one definition (C++'s one-definition rule), and where
// a library linked whole and before the submission (the harness, the driver) holds one, its copy
// is the one the linker keeps. What is refused (SymbolPolicy::check):
//  - a strong definition of any name a linked library defines;
//  - a weak definition of a name a library defines strongly (a weak definition in the program
//    wins over a shared library's, and over an archive member the linker never pulls in);
//  - a weak C-linkage definition of a name a library not linked first defines, weakly or not:
//    a weak clock_gettime would still replace the C library's (header code that makes weak C
//    functions, NVTX's in CUB users, meets them only in the driver, which is linked first);
//  - a GNU unique definition (a static local of an inline function) of a name a library
//    defines other than as unique;
//  - any definition of a name of gpulab's own (namespace gpulab, a type or lambda of it).
// The lab's interface (what the driver takes from the submission) is always allowed, and so is
// the compiler's weak, hidden DW.ref.* in every object with exception handling.
// This module is pure: nm's output in, findings out. grader/build/build.cpp runs nm.
#pragma once

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpulab {

// One line of `nm -P`: the symbol's name, without any @version suffix, and nm's type letter.
struct NmSymbol {
  std::string name;
  char type = '?';
};

// The symbols in `nm -P` output. Archive member headers ("lib.a[x.o]:"), nm's warnings and
// blank lines are skipped.
std::vector<NmSymbol> parse_nm(const std::string& nm_output);

// How the linker binds a symbol, by nm's letter: not a definition the linker sees from other
// objects (undefined, local, debugging), a strong or weak global definition, or a GNU unique
// one (static locals of inline functions and static members of templates).
enum class Binding { none, strong, weak, unique };
Binding binding_of(char nm_type);

// A library the runner links, with its symbols.
struct LinkedLibrary {
  std::string description;  // for messages: "the C library", "gpulab's harness"
  // Linked whole and before the submission's objects: where the library and a submission both
  // define a name weakly, the library's copy is kept.
  bool linked_first = false;
  std::vector<NmSymbol> symbols;  // as `nm -P` lists them (undefined ones are ignored)
};

// A definition a submission may not make.
struct SymbolFinding {
  std::string symbol;   // as the object names it (mangled)
  std::string library;  // the description of the library that defines it
  bool function = true;
};

// The names the lab's driver takes from the submission (its interface): undefined in the
// driver's archive and defined by no linked library, the driver included.
std::set<std::string> interface_names(const std::vector<NmSymbol>& driver_symbols,
                                      const std::vector<LinkedLibrary>& libraries);

// Whether a mangled C++ name is gpulab's own: an entity of namespace gpulab, or one whose name
// involves a type, function or lambda of it.
bool names_gpulab(const std::string& symbol);

class SymbolPolicy {
 public:
  // `libraries` in the order in which their descriptions are preferred in messages.
  SymbolPolicy(const std::vector<LinkedLibrary>& libraries, std::set<std::string> interface);

  // The definitions among one object's symbols that a submission may not make, each once, in
  // the object's order.
  std::vector<SymbolFinding> check(const std::vector<NmSymbol>& object_symbols) const;

 private:
  struct Definition {
    size_t library;
    Binding binding;
    bool function;
  };
  std::vector<LinkedLibrary> libraries_;  // descriptions and linked_first only
  std::unordered_map<std::string, std::vector<Definition>> defined_;
  std::set<std::string> interface_;
};

// The build's message for a finding, `shown` being the name as people read it (demangled):
// "dcs.cu defines clock_gettime, a function of the C library; a submission may define only the
// functions of dcs.h and names of its own. Rename it."
std::string describe_finding(const std::string& file, const std::string& shown,
                             const SymbolFinding& finding, const std::string& interface_header);

}  // namespace gpulab
