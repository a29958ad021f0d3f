// gpulab-sim-rewrite's library interface: turns one CUDA source file into plain C++ that calls
// the sim runtime (see sim/README.md, "The contract"). Free of clang types, so that callers
// (the tool's main, the tests) need not be compiled like LLVM.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gpulab_sim_rewrite {

struct Result {
  bool ok = false;
  std::string text;  // the rewritten file (only meaningful when ok)
  // The student's headers it includes from its directory (or below): each path relative to
  // that directory, and its rewritten text, which starts with a #line naming the original.
  // Written at the same relative paths beside the rewritten file, they are included instead of
  // the originals.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string diagnostics;  // clang's and the rewriter's messages, naming the original file
};

// Where the messages go: into Result::diagnostics, or straight to stderr (in order with clang's
// "N errors generated" line, for the command-line tool).
enum class Messages { collect, to_stderr };

// Rewrites `code`, the contents of the file at `path` (used for relative includes, messages and
// the #line directive). It is parsed as CUDA host code, with no CUDA installation, against the
// sim headers in `include_dir` (sim.h included first, as in the rewritten file), with
// `extra_args` (the user's -I, -D, -std) added to clang's command line.
Result rewrite(const std::string& code, const std::string& path, const std::string& include_dir,
               const std::vector<std::string>& extra_args, Messages messages = Messages::collect);

}  // namespace gpulab_sim_rewrite
