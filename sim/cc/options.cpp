#include "options.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace gpulab_sim_cc {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string extension(const std::string& path) {
  return std::filesystem::path(path).extension().string();
}

// nvcc options that only matter for GPU code: accepted, with their value where they take one.
const std::set<std::string> ignored_with_value = {"-arch",
                                                  "--gpu-architecture",
                                                  "-gencode",
                                                  "--generate-code",
                                                  "-code",
                                                  "--gpu-code",
                                                  "-ccbin",
                                                  "--compiler-bindir",
                                                  "-maxrregcount",
                                                  "--maxrregcount",
                                                  "-Xptxas",
                                                  "--ptxas-options",
                                                  "-Xnvlink",
                                                  "--nvlink-options",
                                                  "-rdc",
                                                  "--relocatable-device-code",
                                                  "-t",
                                                  "--threads",
                                                  "--default-stream",
                                                  "-Xcudafe",
                                                  "-Xarchive",
                                                  "--archive-options"};
const std::set<std::string> ignored_flags = {"--use_fast_math",
                                             "-use_fast_math",
                                             "--expt-relaxed-constexpr",
                                             "-expt-relaxed-constexpr",
                                             "--expt-extended-lambda",
                                             "-expt-extended-lambda",
                                             "--extended-lambda",
                                             "-extended-lambda",
                                             "-lineinfo",
                                             "--generate-line-info",
                                             "-G",
                                             "--device-debug",
                                             "-res-usage",
                                             "--resource-usage",
                                             "-Wno-deprecated-gpu-targets",
                                             "--keep",
                                             "-keep",
                                             "-v",
                                             "--verbose",
                                             "-dlink",
                                             "--device-link",
                                             "-cudart=static",
                                             "-cudart=shared",
                                             "--ftz=true",
                                             "--ftz=false",
                                             "-ftz=true",
                                             "-ftz=false",
                                             "--prec-div=true",
                                             "--prec-div=false",
                                             "--prec-sqrt=true",
                                             "--prec-sqrt=false",
                                             "-prec-div=false",
                                             "-prec-sqrt=false",
                                             "--fmad=true",
                                             "--fmad=false",
                                             "-fmad=true",
                                             "-fmad=false",
                                             "-Xptxas=-v"};
// The CUDA libraries the runtime replaces.
const std::set<std::string> cuda_libraries = {"cudart", "cuda", "cudart_static", "cudadevrt"};

// -Xcompiler a,b,c passes a, b and c to the host compiler.
void split_commas(const std::string& value, std::vector<std::string>& out) {
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    if (comma > start) out.push_back(value.substr(start, comma - start));
    start = comma + 1;
  }
}

}  // namespace

bool parse_options(const std::vector<std::string>& args, Options& o, std::ostream& err) {
  Lang forced = Lang::object;
  bool has_forced = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool missing = false;
    // The value of an option written `-x V`, `-xV` (short) or `--opt=V`.
    auto value_of = [&](const std::string& name) -> std::string {
      if (a == name) {
        if (i + 1 < args.size()) return args[++i];
        missing = true;
        return "";
      }
      if (starts_with(a, name + "=")) return a.substr(name.size() + 1);
      return a.substr(name.size());
    };
    auto is = [&](const std::string& name, bool joined) {
      return a == name || starts_with(a, name + "=") || (joined && starts_with(a, name));
    };

    if (a.empty()) continue;
    if (a[0] != '-' || a == "-") {
      Lang lang = Lang::object;
      std::string ext = extension(a);
      if (has_forced) {
        lang = forced;
      } else if (ext == ".cu") {
        lang = Lang::cuda;
      } else if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C" || ext == ".c++") {
        lang = Lang::cxx;
      } else if (ext == ".c") {
        lang = Lang::c;
      }
      o.inputs.push_back({a, lang});
      // Objects and archives keep their place among the linker options, as with nvcc: an
      // archive given after `-Xlinker=--whole-archive,...` must still follow it.
      if (lang == Lang::object) o.link.push_back(a);
      continue;
    }
    if (a == "--unchecked") {
      // gpulab's own: no checks, and barrier-free kernels run without fibers (sim/README.md).
      o.preprocessor.push_back("-DGPULAB_SIM_UNCHECKED");
    } else if (ignored_flags.count(a)) {
      // GPU-only: nothing to do on the CPU.
    } else if (ignored_with_value.count(a)) {
      ++i;
    } else if (std::any_of(ignored_with_value.begin(), ignored_with_value.end(),
                           [&](const std::string& n) { return starts_with(a, n + "="); }) ||
               starts_with(a, "-arch") || starts_with(a, "-gencode") || starts_with(a, "-Xptxas")) {
      // GPU-only, with its value joined.
    } else if (a == "-o" || a == "--output-file" || starts_with(a, "--output-file=")) {
      o.output = value_of(a == "-o" ? "-o" : "--output-file");
    } else if (a == "-c" || a == "--compile" || a == "-dc" || a == "--device-c") {
      o.compile_only = true;
    } else if (is("-x", true) || is("--x", false)) {
      std::string lang = value_of(starts_with(a, "--x") ? "--x" : "-x");
      has_forced = lang != "none";
      forced = lang == "cu" || lang == "cuda" ? Lang::cuda : lang == "c" ? Lang::c : Lang::cxx;
    } else if (is("-std", false) || is("--std", false)) {
      std::string s = value_of(starts_with(a, "--") ? "--std" : "-std");
      // The sim headers need C++17; newer standards are kept.
      if (s != "c++03" && s != "c++11" && s != "c++14") o.std = s;
    } else if (is("-I", true) || is("--include-path", false)) {
      o.preprocessor.push_back("-I" + value_of(starts_with(a, "--") ? "--include-path" : "-I"));
    } else if (is("-isystem", true) || is("--system-include", false)) {
      o.preprocessor.push_back("-isystem");
      o.preprocessor.push_back(value_of(starts_with(a, "--") ? "--system-include" : "-isystem"));
    } else if (is("-D", true) || is("--define-macro", false)) {
      o.preprocessor.push_back("-D" + value_of(starts_with(a, "--") ? "--define-macro" : "-D"));
    } else if (is("-U", true) || is("--undefine-macro", false)) {
      o.preprocessor.push_back("-U" + value_of(starts_with(a, "--") ? "--undefine-macro" : "-U"));
    } else if (is("-include", false) || is("--pre-include", false)) {
      o.preprocessor.push_back("-include");
      o.preprocessor.push_back(value_of(starts_with(a, "--") ? "--pre-include" : "-include"));
    } else if (is("-l", true) || is("--library", false)) {
      std::string lib = value_of(starts_with(a, "--") ? "--library" : "-l");
      if (!cuda_libraries.count(lib)) o.link.push_back("-l" + lib);
    } else if (is("-L", true) || is("--library-path", false)) {
      o.link.push_back("-L" + value_of(starts_with(a, "--") ? "--library-path" : "-L"));
    } else if (is("-Xcompiler", false) || is("--compiler-options", false)) {
      split_commas(value_of(starts_with(a, "--") ? "--compiler-options" : "-Xcompiler"), o.compile);
    } else if (is("-Xlinker", false) || is("--linker-options", false)) {
      std::vector<std::string> parts;
      split_commas(value_of(starts_with(a, "--") ? "--linker-options" : "-Xlinker"), parts);
      for (const std::string& p : parts) o.link.push_back("-Wl," + p);
    } else if (a == "-O" || starts_with(a, "-O") || a == "-g" || starts_with(a, "-g") ||
               starts_with(a, "-W") || starts_with(a, "-f") || starts_with(a, "-m") || a == "-pg" ||
               a == "-fopenmp") {
      o.compile.push_back(a);
    } else if (a == "-pthread" || a == "-shared" || a == "-static" || a == "-rdynamic") {
      o.compile.push_back(a);
      o.link.push_back(a);
    } else {
      err << "gpulab sim-cc: unknown option " << a << "\n";
      return false;
    }
    if (missing) {
      err << "gpulab sim-cc: option " << a << " needs a value\n";
      return false;
    }
  }
  if (o.inputs.empty()) {
    err << "gpulab sim-cc: no input files\n";
    return false;
  }
  if (o.compile_only && !o.output.empty() && o.inputs.size() > 1) {
    err << "gpulab sim-cc: -c with -o takes one input file\n";
    return false;
  }
  return true;
}

}  // namespace gpulab_sim_cc
