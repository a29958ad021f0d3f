// The headers a translation unit includes, as its compiler printed them: the host compiler's -H
// (g++, under nvcc -M or gpulab-sim-cc -M: runner_recipe.h's include_tree_command) writes a line
// per header it opens, "<dots> <path>", one dot per level of nesting, in the order it opens
// them: a header is listed under the first file that includes it (a later #include of a header
// already read opens nothing), and each of the compiler's preprocessing passes (nvcc's per
// device architecture and the host's) lists its tree after the last. The compiler writes them
// to its error output, where with -w nothing else starts with a dot.
//
// A line marker in the source (`# 1 "thrust/sort.h" 1`) makes the compiler print a header it
// never opened and nest what follows under it; line_markers.h finds them, and the build
// refuses a file that holds one before it trusts this list.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

struct IncludedHeader {
  int depth = 0;     // 1: included by the translation unit's own file
  std::string path;  // as the compiler opened it
};

// Every line of `output` that -H wrote, in order; the rest (the compiler's other words, "Multiple
// include guards may be useful for:" and its list) is left out.
std::vector<IncludedHeader> parse_include_tree(const std::string& output);

// The prerequisites of the make rules in `rule` (a compiler's -M output: "target: a.h b.h", a
// backslash at a line's end continuing it, a rule per pass), each once, in order; a backslash
// before a space makes it part of the name.
std::vector<std::string> parse_make_prerequisites(const std::string& rule);

}  // namespace gpulab
