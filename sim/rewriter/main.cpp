// gpulab-sim-rewrite: rewrites one CUDA source file into plain C++ for the sim runtime.
//   gpulab-sim-rewrite IN.cu -o OUT.cpp [-I DIR] [-D X[=Y]] [-U X] [-isystem DIR] [-- clang args]
// The student's headers that IN.cu includes from its directory (or below) are rewritten too,
// and written beside OUT.cpp at the same relative paths. The sim headers are found at
// GPULAB_SIM_INCLUDE (environment) or where this build put them.
// Messages go to stderr; the exit status is 1 when the file could not be rewritten.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "rewrite.h"

#ifndef GPULAB_SIM_INCLUDE_DIR
#error "GPULAB_SIM_INCLUDE_DIR must name sim/runtime/include"
#endif

int main(int argc, char** argv) {
  std::string input, output;
  std::vector<std::string> user;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--") {
      user.insert(user.end(), argv + i + 1, argv + argc);
      break;
    } else if (a == "-o") {
      output = value();
    } else if (a == "-I" || a == "-D" || a == "-U" || a == "-isystem" || a == "-include") {
      user.push_back(a);
      user.push_back(value());
    } else if (a.rfind("-I", 0) == 0 || a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0 ||
               a.rfind("-std=", 0) == 0) {
      user.push_back(a);
    } else if (!a.empty() && a[0] != '-' && input.empty()) {
      input = a;
    } else {
      std::cerr << "gpulab-sim-rewrite: unknown argument " << a << "\n"
                << "usage: gpulab-sim-rewrite IN.cu -o OUT.cpp [-I DIR] [-D X[=Y]] [-- ARGS]\n";
      return 2;
    }
  }
  if (input.empty() || output.empty()) {
    std::cerr << "usage: gpulab-sim-rewrite IN.cu -o OUT.cpp [-I DIR] [-D X[=Y]] [-- ARGS]\n";
    return 2;
  }
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::cerr << "gpulab-sim-rewrite: cannot read " << input << "\n";
    return 1;
  }
  std::stringstream code;
  code << in.rdbuf();

  const char* env = std::getenv("GPULAB_SIM_INCLUDE");
  gpulab_sim_rewrite::Result result =
      gpulab_sim_rewrite::rewrite(code.str(), input, env ? env : GPULAB_SIM_INCLUDE_DIR, user,
                                  gpulab_sim_rewrite::Messages::to_stderr);
  if (!result.ok) return 1;
  // The student's headers go beside the output, at their paths relative to the input.
  std::vector<std::pair<std::string, std::string>> files = result.headers;
  files.insert(files.begin(), {"", result.text});
  std::filesystem::path dir = std::filesystem::path(output).parent_path();
  for (const auto& [relative, text] : files) {
    std::filesystem::path path = relative.empty() ? std::filesystem::path(output) : dir / relative;
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) {
      std::cerr << "gpulab-sim-rewrite: cannot write " << path.string() << "\n";
      return 1;
    }
  }
  return 0;
}
