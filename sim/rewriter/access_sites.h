// Where the accesses that access_instrument.cpp finds are written, and the wraps that go there.
// One text can be compiled many times: a template's body once per instantiation, a macro's body
// once per use. Each time it is seen is a sighting; a text is wrapped once, with the kind all its
// sightings agree on, and a text whose sightings disagree (read in one use, written in another),
// or that lies in no file the rewriter may edit, is counted as not instrumented (sim/README.md,
// contract item 4).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "edits.h"

namespace gpulab_sim_rewrite {

// What the context does with an lvalue: nothing the runtime checks (skip), or read, write, both.
enum class Kind { skip, rd, wr, rw };

// Accesses that could not be instrumented: how many, and where the first is used.
struct NotInstrumented {
  int count = 0;
  clang::SourceLocation first;
};

class AccessSites {
 public:
  explicit AccessSites(Edits& edits) : ed_(edits) {}

  // One sighting of the access `e` used as `kind`. `shared_text`: the text may mean something
  // else in another sighting (a template's body, dependent code), so it is wrapped in the form
  // that also accepts a value (access_ref).
  void add(const clang::Expr* e, Kind kind, bool shared_text);

  // Inserts the wraps; returns what was left unchecked.
  NotInstrumented apply();

 private:
  struct Site {
    clang::SourceLocation begin, end;  // the text wrapped: [begin, end)
    Kind kind = Kind::skip;
    bool conflict = false;      // sightings disagree on the kind
    bool generic = false;       // wrapped as access_ref
    std::string macro;          // the macro whose definition holds the text, if any
    clang::SourceLocation use;  // the first sighting's place in a file, for the count
  };

  // The text of `e` in a file the rewriter may edit: where it is written (through macro
  // arguments and whole macro expansions), else inside the definition of the macro that wrote
  // it (`macro` names it). False when neither exists.
  bool locate(const clang::Expr* e, clang::SourceLocation& begin, clang::SourceLocation& end,
              std::string& macro);
  // Counts the text written at `written` once, however often it is used; `use` is a place in a
  // file where it is used, for the message.
  void count_unchecked(clang::SourceLocation written, clang::SourceLocation use);
  std::string wrap_open(const Site& s);
  std::string wrap_close(const Site& s);

  Edits& ed_;
  std::map<std::pair<unsigned, unsigned>, Site> sites_;  // by the raw locations of begin and end
  std::map<unsigned, clang::SourceLocation> unmapped_;   // uses, by where each is written
};

}  // namespace gpulab_sim_rewrite
