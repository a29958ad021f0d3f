#include "access_sites.h"

#include <clang/AST/Expr.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <vector>

namespace gpulab_sim_rewrite {
namespace {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::rd:
      return "rd";
    case Kind::wr:
      return "wr";
    default:
      return "rw";
  }
}

// The expansions a macro location lies in, innermost first, each with the location in it: an
// argument's token lifts to its parameter's place in the body, a body's token to the macro's
// use. `at_end` lifts to the end of each use rather than its start.
std::vector<std::pair<clang::FileID, clang::SourceLocation>> expansions(clang::SourceManager& sm,
                                                                        clang::SourceLocation loc,
                                                                        bool at_end) {
  std::vector<std::pair<clang::FileID, clang::SourceLocation>> chain;
  while (loc.isMacroID()) {
    chain.push_back({sm.getFileID(loc), loc});
    clang::CharSourceRange up = sm.getImmediateExpansionRange(loc);
    loc = at_end ? up.getEnd() : up.getBegin();
  }
  return chain;
}

}  // namespace

bool AccessSites::locate(const clang::Expr* e, clang::SourceLocation& begin,
                         clang::SourceLocation& end, std::string& macro) {
  clang::CharSourceRange r = ed_.file_range(e->getSourceRange());
  if (r.isValid()) {
    begin = r.getBegin();
    end = r.getEnd();
    return true;
  }
  // Inside a macro's body: lift both ends to the innermost expansion that holds them both, and
  // take the text that expansion was spelled from, in the macro's definition.
  clang::SourceManager& sm = ed_.sm();
  auto from = expansions(sm, e->getBeginLoc(), false);
  auto to = expansions(sm, e->getEndLoc(), true);
  for (const auto& [file, b] : from) {
    auto match = std::find_if(to.begin(), to.end(), [&](const auto& t) { return t.first == file; });
    if (match == to.end()) continue;
    clang::SourceLocation sb = sm.getSpellingLoc(b);
    clang::SourceLocation se = sm.getSpellingLoc(match->second);
    if (!sb.isFileID() || sm.getFileID(sb) != sm.getFileID(se) ||
        !ed_.rewritable(sm.getFileID(sb)) || sm.getFileOffset(se) < sm.getFileOffset(sb)) {
      return false;
    }
    begin = sb;
    end = clang::Lexer::getLocForEndOfToken(se, 0, sm, ed_.lang());
    macro = clang::Lexer::getImmediateMacroName(b, sm, ed_.lang()).str();
    return end.isValid();
  }
  return false;
}

void AccessSites::count_unchecked(clang::SourceLocation written, clang::SourceLocation use) {
  clang::SourceManager& sm = ed_.sm();
  unmapped_.emplace(sm.getSpellingLoc(written).getRawEncoding(), sm.getExpansionLoc(use));
}

void AccessSites::add(const clang::Expr* e, Kind kind, bool shared_text) {
  clang::SourceLocation begin, end;
  std::string macro;
  if (!locate(e, begin, end, macro)) {
    if (kind != Kind::skip) count_unchecked(e->getBeginLoc(), e->getBeginLoc());
    return;
  }
  auto [it, fresh] = sites_.try_emplace({begin.getRawEncoding(), end.getRawEncoding()});
  Site& s = it->second;
  // A text written once and expanded several times by one macro use (an argument used twice,
  // SWAP(a, b)) is one place doing all of it; a shared text's uses each do their own.
  bool shared = shared_text || !macro.empty();
  if (fresh) {
    s = Site{begin, end, kind, false, shared, macro, ed_.sm().getExpansionLoc(e->getBeginLoc())};
  } else if (s.kind != kind) {
    if (shared || s.generic) {
      s.conflict = true;
    } else if (s.kind == Kind::skip || kind == Kind::skip) {
      s.kind = s.kind == Kind::skip ? kind : s.kind;
    } else {
      s.kind = Kind::rw;
    }
  }
  s.generic = s.generic || shared;
}

std::string AccessSites::wrap_open(const Site& s) {
  return s.generic ? "::gpulab_sim::access_ref((" : "(*::gpulab_sim::access(&(";
}

std::string AccessSites::wrap_close(const Site& s) {
  std::string args = std::string("), ::gpulab_sim::") + kind_name(s.kind) + ", __FILE__, __LINE__";
  if (!s.generic) return args + "))";
  if (!s.macro.empty()) {
    // The definition's place, for the message: __FILE__ and __LINE__ name the macro's use.
    clang::SourceManager& sm = ed_.sm();
    args += ", " + quoted(s.macro) + ", " + quoted(ed_.file_name(sm.getFileID(s.begin))) + ", " +
            std::to_string(sm.getSpellingLineNumber(s.begin));
  }
  return args + ")";
}

NotInstrumented AccessSites::apply() {
  std::vector<const Site*> wraps;
  for (const auto& [key, s] : sites_) {
    if (s.conflict) {
      count_unchecked(s.begin, s.use);
    } else if (s.kind != Kind::skip) {
      wraps.push_back(&s);
    }
  }
  clang::SourceManager& sm = ed_.sm();
  auto offset = [&](clang::SourceLocation l) {
    return std::make_pair(sm.getFileID(l), sm.getFileOffset(l));
  };
  // Nested wraps sharing a start open outermost first; sharing an end, close innermost first.
  std::sort(wraps.begin(), wraps.end(), [&](const Site* a, const Site* b) {
    return offset(a->begin) != offset(b->begin) ? offset(a->begin) < offset(b->begin)
                                                : offset(a->end) > offset(b->end);
  });
  for (const Site* s : wraps) ed_.rewriter().InsertTextAfter(s->begin, wrap_open(*s));
  std::sort(wraps.begin(), wraps.end(), [&](const Site* a, const Site* b) {
    return offset(a->end) != offset(b->end) ? offset(a->end) < offset(b->end)
                                            : offset(a->begin) > offset(b->begin);
  });
  for (const Site* s : wraps) ed_.rewriter().InsertTextAfter(s->end, wrap_close(*s));

  NotInstrumented missed;
  missed.count = static_cast<int>(unmapped_.size());
  if (missed.count) {
    // The first in the file, for the message (the map is ordered by where each is written).
    clang::SourceLocation first = unmapped_.begin()->second;
    for (const auto& [spelling, use] : unmapped_) {
      if (sm.isBeforeInTranslationUnit(use, first)) first = use;
    }
    missed.first = first;
  }
  return missed;
}

}  // namespace gpulab_sim_rewrite
