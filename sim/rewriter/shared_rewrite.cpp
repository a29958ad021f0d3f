// __shared__ declarations in function bodies become references to the running block's own
// object (contract item 2), and namespace-scope __device__ / __constant__ variables are
// registered as symbols (contract item 3).
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>

#include "passes.h"

namespace gpulab_sim_rewrite {
namespace {

class Finder : public clang::RecursiveASTVisitor<Finder> {
 public:
  explicit Finder(Edits& edits) : ed_(edits) {}
  std::vector<clang::DeclStmt*> shared_stmts;
  std::vector<clang::VarDecl*> symbols;

  bool VisitDeclStmt(clang::DeclStmt* stmt) {
    for (clang::Decl* d : stmt->decls()) {
      if (llvm::isa<clang::VarDecl>(d) && has_explicit<clang::CUDASharedAttr>(d)) {
        clang::SourceLocation at = ed_.sm().getExpansionLoc(stmt->getBeginLoc());
        if (!ed_.in_student_file(at) && !ed_.sm().isInSystemHeader(at)) {
          ed_.error(stmt->getBeginLoc(),
                    "__shared__ memory in a header outside the .cu file's directory: the CPU "
                    "backend rewrites only the .cu file and the headers beside it");
        }
        shared_stmts.push_back(stmt);
        break;
      }
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* var) {
    // A block-scope `extern __shared__` belongs to the namespace semantically, not lexically.
    if (!var->getLexicalDeclContext()->isFileContext() ||
        !ed_.in_student_file(var->getLocation())) {
      return true;
    }
    if (has_explicit<clang::CUDASharedAttr>(var)) {
      ed_.error(var->getLocation(),
                "__shared__ variables outside a function are not supported by the CPU backend; "
                "declare it inside the kernel");
    } else if ((has_explicit<clang::CUDADeviceAttr>(var) ||
                has_explicit<clang::CUDAConstantAttr>(var)) &&
               var->isThisDeclarationADefinition() != clang::VarDecl::DeclarationOnly &&
               !var->getDescribedVarTemplate()) {
      symbols.push_back(var);
    }
    return true;
  }

 private:
  Edits& ed_;
};

// `text` without the words that only the GPU declaration needs (__shared__, extern, static) and
// without alignment attributes (which g++ would ignore on a template argument, with a warning).
std::string strip_declspec(const std::string& text) {
  static const char* const words[] = {"__shared__", "extern",        "static",     "__align__",
                                      "alignas",    "__attribute__", "__device__", "__restrict__"};
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      std::string word = text.substr(i, j - i);
      if (std::find(std::begin(words), std::end(words), word) == std::end(words)) {
        out += word;
        i = j;
        continue;
      }
      size_t k = j;
      while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
      if (k < text.size() && text[k] == '(') {  // skip the balanced argument list
        int depth = 0;
        for (; k < text.size(); ++k) {
          if (text[k] == '(') ++depth;
          if (text[k] == ')' && --depth == 0) break;
        }
        j = k + 1;
      }
      i = j;
      continue;
    }
    out += text[i++];
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

class SharedRewriter {
 public:
  explicit SharedRewriter(Edits& edits) : ed_(edits), sm_(edits.sm()) {}

  void rewrite(clang::DeclStmt* stmt) {
    clang::CharSourceRange whole = ed_.file_range(stmt->getSourceRange());
    if (whole.isInvalid()) {
      ed_.error(stmt->getBeginLoc(),
                "a __shared__ declaration written inside a macro cannot be rewritten by the CPU "
                "backend; write it out in the kernel");
      return;
    }
    std::string common;  // the declaration specifiers, shared by every declarator
    std::string replacement;
    clang::SourceLocation after_previous = whole.getBegin();
    bool first = true;
    for (clang::Decl* d : stmt->decls()) {
      auto* var = llvm::cast<clang::VarDecl>(d);
      clang::SourceLocation name = sm_.getExpansionLoc(var->getLocation());
      // What the declarator adds before the name (`*`); the specifiers are the first
      // declarator's prefix without it.
      std::string before = text_between(after_previous, name);
      if (first) {
        common = before;
        while (!common.empty() && (common.back() == '*' || common.back() == '&' ||
                                   std::isspace(static_cast<unsigned char>(common.back())))) {
          common.pop_back();
        }
        before = before.substr(common.size());
      } else {
        before = before.substr(before.find(',') + 1);
      }
      std::string after;
      clang::SourceLocation decl_end = sm_.getExpansionLoc(var->getSourceRange().getEnd());
      clang::SourceLocation name_end = end_of_token(name);
      if (sm_.isBeforeInTranslationUnit(name, decl_end)) {
        after = text_between(name_end, end_of_token(decl_end));
      }
      std::string n = var->getNameAsString();
      std::string type = trim(strip_declspec(common + before));
      if (var->hasExternalStorage()) {
        replacement +=
            type + "* " + n + " = ::gpulab_sim::dynamic_shared<" + type + ">(__FILE__, __LINE__);";
      } else {
        replacement += "auto& " + n + " = ::gpulab_sim::shared<" + type + after +
                       ">(&gpulab_sim_tu, " + std::to_string(next_id_++) + ", \"" + n +
                       "\", __FILE__, __LINE__);";
      }
      after_previous = end_of_token(decl_end);
      first = false;
      if (replacement.back() == ';') replacement += ' ';
    }
    ed_.replace_keeping_lines(whole, trim(replacement));
  }

 private:
  clang::SourceLocation end_of_token(clang::SourceLocation loc) {
    return clang::Lexer::getLocForEndOfToken(loc, 0, sm_, ed_.lang());
  }
  std::string text_between(clang::SourceLocation b, clang::SourceLocation e) {
    return ed_.text(clang::CharSourceRange::getCharRange(b, e));
  }

  Edits& ed_;
  clang::SourceManager& sm_;
  int next_id_ = 0;
};

// The location just after the `;` that ends the declaration holding `var`.
clang::SourceLocation after_semicolon(Edits& ed, clang::VarDecl* var) {
  clang::SourceLocation loc = ed.sm().getExpansionLoc(var->getSourceRange().getEnd());
  for (int i = 0; i < 100000; ++i) {
    llvm::Optional<clang::Token> tok = clang::Lexer::findNextToken(loc, ed.sm(), ed.lang());
    if (!tok || tok->is(clang::tok::eof)) break;
    if (tok->is(clang::tok::semi)) return tok->getEndLoc();
    loc = tok->getLocation();
  }
  return {};
}

}  // namespace

void rewrite_shared_and_symbols(Edits& edits) {
  Finder finder(edits);
  finder.TraverseDecl(edits.ctx().getTranslationUnitDecl());
  clang::SourceManager& sm = edits.sm();
  auto by_position = [&](auto* a, auto* b) {
    return sm.isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc());
  };

  // Number the declarations in file order, once each (a template's pattern is visited once).
  std::sort(finder.shared_stmts.begin(), finder.shared_stmts.end(), by_position);
  finder.shared_stmts.erase(std::unique(finder.shared_stmts.begin(), finder.shared_stmts.end()),
                            finder.shared_stmts.end());
  SharedRewriter shared(edits);
  for (clang::DeclStmt* stmt : finder.shared_stmts) {
    if (edits.in_student_file(stmt->getBeginLoc())) shared.rewrite(stmt);
  }

  std::sort(finder.symbols.begin(), finder.symbols.end(), by_position);
  int id = 0;
  for (clang::VarDecl* var : finder.symbols) {
    clang::SourceLocation at = after_semicolon(edits, var);
    if (at.isInvalid() || !edits.rewritable(sm.getFileID(at))) {
      edits.error(var->getLocation(), "cannot find the end of this declaration");
      continue;
    }
    std::string n = var->getNameAsString();
    edits.rewriter().InsertTextAfter(at, " static ::gpulab_sim::symbol gpulab_sim_sym_" +
                                             std::to_string(id++) + "(&" + n + ", sizeof(" + n +
                                             "), \"" + n + "\");");
  }
}

}  // namespace gpulab_sim_rewrite
