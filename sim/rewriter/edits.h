// Shared state of one rewrite: the source manager, the clang::Rewriter on the main file, and
// helpers that turn AST locations into main-file text ranges. Edits keep every line where it
// was (a replacement keeps the newlines of what it replaces), so that messages and __LINE__
// name the student's lines.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpulab_sim_rewrite {

class Edits {
 public:
  // `main_path`: the main file's name as the rewritten file's #line gives it.
  Edits(clang::ASTContext& ctx, std::string main_path);

  clang::ASTContext& ctx() { return ctx_; }
  clang::SourceManager& sm() { return sm_; }
  const clang::LangOptions& lang() { return ctx_.getLangOpts(); }
  clang::Rewriter& rewriter() { return rewriter_; }
  clang::FileID main_file() const { return main_; }

  // The student's files: the main file, and the headers it includes from its own directory
  // (or below it), each through its first inclusion. Only these are rewritten.
  bool rewritable(clang::FileID file);
  bool in_student_file(clang::SourceLocation loc) {  // in a rewritable file, after macro expansion
    return loc.isValid() && rewritable(sm_.getFileID(sm_.getExpansionLoc(loc)));
  }
  // What __FILE__ names in a rewritten file: the main file's path as given, a header's
  // absolute path (each rewritten file's #line says so).
  std::string file_name(clang::FileID file);
  // The headers among them, in inclusion order, with their paths relative to the main file's
  // directory.
  const std::vector<std::pair<clang::FileID, std::string>>& headers() const { return headers_; }

  // The character range in one rewritable file that `range` was written as (through macro
  // arguments and whole macro expansions), or an invalid range when it is not one contiguous
  // piece of such a file.
  clang::CharSourceRange file_range(clang::SourceRange range);

  std::string text(clang::CharSourceRange range);

  // Replaces `range` by `text`, followed by as many newlines as `range` held.
  void replace_keeping_lines(clang::CharSourceRange range, const std::string& text);

  void error(clang::SourceLocation loc, const std::string& message);
  bool failed() const { return failed_; }

 private:
  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  clang::Rewriter rewriter_;
  clang::FileID main_;
  std::string main_path_;
  std::string main_dir_;
  std::map<clang::FileID, bool> rewritable_;
  std::set<const clang::FileEntry*> seen_;
  std::vector<std::pair<clang::FileID, std::string>> headers_;
  bool failed_ = false;
};

// `path` made absolute, without "." and ".." components.
std::string absolute_path(const std::string& path);

// `s` as a C string literal.
std::string quoted(const std::string& s);

// Newlines in `s`, and `s` with each newline turned into a space (for text moved elsewhere).
int count_newlines(const std::string& s);
std::string one_line(const std::string& s);

}  // namespace gpulab_sim_rewrite
