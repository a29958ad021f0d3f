// nvcc-style command lines, parsed into what the driver does with them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpulab_sim_cc {

enum class Lang { cuda, cxx, c, object };

struct Input {
  std::string path;
  Lang lang;
};

struct Options {
  std::vector<Input> inputs;
  std::string output;                     // -o; empty: a.out, or NAME.o with -c
  bool compile_only = false;              // -c / -dc
  bool dependencies_only = false;         // -M: the headers each input includes, nothing built
  std::string std = "c++17";              // at least C++17: the sim headers need it
  std::vector<std::string> preprocessor;  // -I, -isystem, -D, -U, -include (rewriter and g++)
  std::vector<std::string> compile;       // -O, -g, -W..., -f..., -Xcompiler (g++ only)
  std::vector<std::string> link;          // -L, -l, -Xlinker, -pthread, objects (link only)
};

// Whether `args` ask for the usage (-h, --help); print_usage writes it, from the list of
// options the parser reads.
bool wants_help(const std::vector<std::string>& args);
void print_usage(std::ostream& out);

// Parses `args`; on a bad command line writes why to `err` and returns false.
bool parse_options(const std::vector<std::string>& args, Options& options, std::ostream& err);

}  // namespace gpulab_sim_cc
