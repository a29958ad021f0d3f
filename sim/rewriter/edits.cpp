#include "edits.h"

#include <clang/Lex/Lexer.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>

namespace gpulab_sim_rewrite {

Edits::Edits(clang::ASTContext& ctx, std::string main_path)
    : ctx_(ctx),
      sm_(ctx.getSourceManager()),
      rewriter_(ctx.getSourceManager(), ctx.getLangOpts()),
      main_(ctx.getSourceManager().getMainFileID()),
      main_path_(std::move(main_path)) {
  const clang::FileEntry* main = sm_.getFileEntryForID(main_);
  llvm::SmallString<256> dir(absolute_path(main ? main->getName().str() : ""));
  llvm::sys::path::remove_filename(dir);
  main_dir_ = std::string(dir) + "/";
  rewritable_[main_] = true;
  if (main) seen_.insert(main);
  // Visit the files in inclusion order, so that headers() lists them in that order.
  for (unsigned i = 1; i < sm_.local_sloc_entry_size(); ++i) {
    const clang::SrcMgr::SLocEntry& entry = sm_.getLocalSLocEntry(i);
    if (entry.isFile()) {
      rewritable(sm_.getFileID(clang::SourceLocation::getFromRawEncoding(entry.getOffset())));
    }
  }
}

bool Edits::rewritable(clang::FileID file) {
  auto known = rewritable_.find(file);
  if (known != rewritable_.end()) return known->second;
  bool ok = false;
  const clang::FileEntry* entry = sm_.getFileEntryForID(file);
  if (entry && !sm_.isInSystemHeader(sm_.getLocForStartOfFile(file))) {
    std::string name = absolute_path(entry->getName().str());
    std::string relative = name.rfind(main_dir_, 0) == 0 ? name.substr(main_dir_.size()) : "";
    // Below the main file's directory, and only its first inclusion (a file included twice
    // would otherwise be rewritten twice).
    ok =
        !relative.empty() && relative.find("..") == std::string::npos && seen_.insert(entry).second;
    if (ok) headers_.push_back({file, relative});
  }
  rewritable_[file] = ok;
  return ok;
}

std::string Edits::file_name(clang::FileID file) {
  const clang::FileEntry* entry = sm_.getFileEntryForID(file);
  return file == main_ || !entry ? main_path_ : absolute_path(entry->getName().str());
}

clang::CharSourceRange Edits::file_range(clang::SourceRange range) {
  clang::CharSourceRange r =
      clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(range), sm_, lang());
  if (r.isInvalid() || sm_.getFileID(r.getBegin()) != sm_.getFileID(r.getEnd()) ||
      !rewritable(sm_.getFileID(r.getBegin()))) {
    return {};
  }
  return r;
}

std::string Edits::text(clang::CharSourceRange range) {
  return clang::Lexer::getSourceText(range, sm_, lang()).str();
}

void Edits::replace_keeping_lines(clang::CharSourceRange range, const std::string& text) {
  std::string replacement = text + std::string(count_newlines(this->text(range)), '\n');
  rewriter_.ReplaceText(range, replacement);
}

void Edits::error(clang::SourceLocation loc, const std::string& message) {
  clang::DiagnosticsEngine& diags = ctx_.getDiagnostics();
  unsigned id = diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "gpulab sim: %0");
  diags.Report(loc, id) << message;
  failed_ = true;
}

std::string absolute_path(const std::string& path) {
  // clang names a header by the path it was first found through (e.g. "inc/k.cuh" via -Iinc).
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, true);
  return std::string(p);
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

int count_newlines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

std::string one_line(const std::string& s) {
  std::string out = s;
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

}  // namespace gpulab_sim_rewrite
