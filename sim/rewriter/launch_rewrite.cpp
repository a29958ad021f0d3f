// Launches: K<<<G, B, S, T>>>(A...) becomes
//   ::gpulab_sim::launch(__FILE__, __LINE__, G, B, S, T, [&](auto&&... gpulab_a) { K(gpulab_a...);
//   }, A...)
// (launch_barrier_free for a kernel that barrier_free.cpp proves has no barrier)
// by two edits that leave G, B, S, T and A... in place: `K<<<` becomes the call's head, and
// `>>>(` becomes the defaults and the lambda. A launch written inside a macro of the student's
// file is rewritten in the macro's definition.
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include <set>

#include "passes.h"

namespace gpulab_sim_rewrite {
namespace {

class LaunchFinder : public clang::RecursiveASTVisitor<LaunchFinder> {
 public:
  std::vector<clang::CUDAKernelCallExpr*> launches;
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* call) {
    launches.push_back(call);
    return true;
  }
};

class LaunchRewriter {
 public:
  explicit LaunchRewriter(Edits& edits) : ed_(edits), sm_(edits.sm()) {}

  void rewrite(clang::CUDAKernelCallExpr* call) {
    const clang::CallExpr* config = call->getConfig();
    // clang builds the configuration call with `<<<` as its callee's location and `>>>` as its
    // closing parenthesis.
    clang::SourceLocation lll = config->getCallee()->getBeginLoc();
    clang::SourceLocation ggg = config->getRParenLoc();
    if (!ed_.in_student_file(lll)) {
      // Library headers are not ours to rewrite; a student's own header would reach g++ with
      // `<<<` still in it, so say why.
      if (!sm_.isInSystemHeader(sm_.getExpansionLoc(lll))) {
        ed_.error(lll,
                  "this kernel launch is in a header outside the .cu file's directory; the CPU "
                  "backend rewrites only the .cu file and the headers beside it");
      }
      return;
    }
    in_macro_ = lll.isMacroID();
    context_ = sm_.getFileID(lll);
    if (in_macro_ && !ed_.rewritable(sm_.getFileID(sm_.getSpellingLoc(lll)))) {
      ed_.error(lll,
                "this kernel launch is written inside a macro defined outside the student's files; "
                "the CPU backend rewrites only the .cu file and the headers beside it");
      return;
    }
    clang::SourceLocation kernel_begin = to_context(call->getCallee()->getBeginLoc(), false);
    clang::SourceLocation kernel_end = to_context(call->getCallee()->getEndLoc(), true);
    clang::SourceLocation open = to_context(lll, false);
    clang::SourceLocation close = to_context(ggg, false);
    clang::SourceLocation rparen = to_context(call->getRParenLoc(), true);
    if (kernel_begin.isInvalid() || kernel_end.isInvalid() || open.isInvalid() ||
        close.isInvalid() || rparen.isInvalid()) {
      ed_.error(lll, "cannot rewrite this kernel launch: its parts come from different macros");
      return;
    }
    if (!done_.insert(sm_.getFileOffset(open)).second) return;  // one macro, several uses

    const clang::LangOptions& lang = ed_.lang();
    llvm::Optional<clang::Token> paren = clang::Lexer::findNextToken(close, sm_, lang);
    if (!paren || !paren->is(clang::tok::l_paren)) {
      ed_.error(ggg, "cannot rewrite this kernel launch: no '(' after '>>>'");
      return;
    }
    std::string kernel = ed_.text(clang::CharSourceRange::getTokenRange(kernel_begin, kernel_end));
    std::string args = ed_.text(clang::CharSourceRange::getCharRange(paren->getEndLoc(), rparen));
    bool has_args = args.find_first_not_of(" \t\r\n") != std::string::npos;

    unsigned written = 0;  // configuration arguments written by the student
    for (const clang::Expr* arg : config->arguments()) {
      if (!llvm::isa<clang::CXXDefaultArgExpr>(arg)) ++written;
    }
    std::string defaults;
    for (unsigned i = written < 2 ? 2 : written; i < 4; ++i) defaults += ", 0";

    clang::SourceLocation open_end = clang::Lexer::getLocForEndOfToken(open, 0, sm_, lang);
    // A launch inside a macro is one text for every kernel the macro is used with: never
    // barrier-free.
    const bool free = !in_macro_ && barrier_free(call->getDirectCallee(), ed_);
    ed_.replace_keeping_lines(clang::CharSourceRange::getCharRange(kernel_begin, open_end),
                              free ? "::gpulab_sim::launch_barrier_free(__FILE__, __LINE__, "
                                   : "::gpulab_sim::launch(__FILE__, __LINE__, ");
    ed_.replace_keeping_lines(clang::CharSourceRange::getCharRange(close, paren->getEndLoc()),
                              defaults + ", [&](auto&&... gpulab_a) { " + one_line(kernel) +
                                  "(gpulab_a...); }" + (has_args ? ", " : ""));
  }

 private:
  // Where `loc` (a token start, or a token's start at a range end) is written in the text
  // being rewritten: the main file, or the body of the macro that holds `<<<`.
  clang::SourceLocation to_context(clang::SourceLocation loc, bool end) {
    if (!in_macro_) {
      loc = end ? sm_.getExpansionRange(loc).getEnd() : sm_.getExpansionLoc(loc);
      return sm_.getFileID(loc) == context_ ? loc : clang::SourceLocation();
    }
    while (loc.isMacroID() && sm_.getFileID(loc) != context_) {
      clang::CharSourceRange r = sm_.getImmediateExpansionRange(loc);
      loc = end ? r.getEnd() : r.getBegin();
    }
    if (sm_.getFileID(loc) != context_) return {};
    loc = sm_.getSpellingLoc(loc);
    return ed_.rewritable(sm_.getFileID(loc)) ? loc : clang::SourceLocation();
  }

  Edits& ed_;
  clang::SourceManager& sm_;
  bool in_macro_ = false;
  clang::FileID context_;
  std::set<unsigned> done_;
};

}  // namespace

void rewrite_launches(Edits& edits) {
  LaunchFinder finder;
  finder.TraverseDecl(edits.ctx().getTranslationUnitDecl());
  LaunchRewriter rewriter(edits);
  for (clang::CUDAKernelCallExpr* call : finder.launches) rewriter.rewrite(call);
}

}  // namespace gpulab_sim_rewrite
