#include "options.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

namespace gpulab_sim_cc {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string extension(const std::string& path) {
  return std::filesystem::path(path).extension().string();
}

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

// The CUDA libraries the runtime replaces.
const std::set<std::string> cuda_libraries = {"cudart", "cuda", "cudart_static", "cudadevrt"};

// How an option is written.
enum class Takes {
  nothing,  // exactly as named
  value,    // `-x V` or `-x=V`
  joined,   // also `-xV` (its first, short spelling)
  prefix,   // any option that starts so, taken whole (-O3, -Wall)
};

// What the parse keeps beside the options: -x's language for the inputs that follow.
struct ParseState {
  Lang forced = Lang::object;
  bool has_forced = false;
};

// One option: its spellings, how it is written, its help line, and what it does. The one list
// both the parser and --help read.
struct Rule {
  std::vector<std::string> names;
  Takes takes;
  const char* value_name;
  const char* help;
  std::function<void(Options&, ParseState&, const std::string& arg, const std::string& value)>
      apply;
};

// The help of the options that only matter for GPU code, listed together by --help.
constexpr const char* kGpuOnly = "GPU-only: accepted and ignored";

void nothing_to_do(Options&, ParseState&, const std::string&, const std::string&) {}

// In matching order: the GPU-only spellings before the host compiler's prefixes they share a
// start with (-maxrregcount, -gencode, -lineinfo).
const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      {{"-o", "--output-file"},
       Takes::value,
       "FILE",
       "write FILE (default a.out, or NAME.o with -c)",
       [](Options& o, ParseState&, const std::string&, const std::string& v) { o.output = v; }},
      {{"-c", "--compile", "-dc", "--device-c"},
       Takes::nothing,
       nullptr,
       "compile only, to an object file",
       [](Options& o, ParseState&, const std::string&, const std::string&) {
         o.compile_only = true;
       }},
      {{"-M", "--generate-dependencies"},
       Takes::nothing,
       nullptr,
       "write the headers each input includes (make's rule, to -o or the standard output), "
       "preprocessed as its compile would be, without the rewrite",
       [](Options& o, ParseState&, const std::string&, const std::string&) {
         o.dependencies_only = true;
       }},
      {{"-x", "--x"},
       Takes::joined,
       "LANG",
       "treat the inputs that follow as LANG (cu, c++, c; none: by their extension)",
       [](Options&, ParseState& st, const std::string&, const std::string& lang) {
         st.has_forced = lang != "none";
         st.forced = lang == "cu" || lang == "cuda" ? Lang::cuda
                     : lang == "c"                  ? Lang::c
                                                    : Lang::cxx;
       }},
      {{"-std", "--std"},
       Takes::value,
       "STD",
       "the C++ standard (at least c++17 is used)",
       [](Options& o, ParseState&, const std::string&, const std::string& s) {
         // The sim headers need C++17; newer standards are kept.
         if (s != "c++03" && s != "c++11" && s != "c++14") o.std = s;
       }},
      {{"-I", "--include-path"},
       Takes::joined,
       "DIR",
       "search DIR for headers",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         o.preprocessor.push_back("-I" + v);
       }},
      {{"-isystem", "--system-include"},
       Takes::joined,
       "DIR",
       "search DIR for system headers",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         o.preprocessor.insert(o.preprocessor.end(), {"-isystem", v});
       }},
      {{"-D", "--define-macro"},
       Takes::joined,
       "X[=Y]",
       "define macro X",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         o.preprocessor.push_back("-D" + v);
       }},
      {{"-U", "--undefine-macro"},
       Takes::joined,
       "X",
       "undefine macro X",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         o.preprocessor.push_back("-U" + v);
       }},
      {{"-include", "--pre-include"},
       Takes::value,
       "FILE",
       "include FILE first",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         o.preprocessor.insert(o.preprocessor.end(), {"-include", v});
       }},
      {{"--unchecked"},
       Takes::nothing,
       nullptr,
       "gpulab's own: no checks, barrier-free kernels without fibers (sim/README.md)",
       [](Options& o, ParseState&, const std::string&, const std::string&) {
         o.preprocessor.push_back("-DGPULAB_SIM_UNCHECKED");
       }},
      {{"-Xcompiler", "--compiler-options"},
       Takes::value,
       "A,B",
       "pass A and B to the host compiler",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         split_commas(v, o.compile);
       }},
      {{"-Xlinker", "--linker-options"},
       Takes::value,
       "A,B",
       "pass A and B to the linker",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         std::vector<std::string> parts;
         split_commas(v, parts);
         for (const std::string& p : parts) o.link.push_back("-Wl," + p);
       }},
      // GPU-only: nothing to do on the CPU.
      {{"-arch",
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
        "--archive-options"},
       Takes::value,
       "V",
       kGpuOnly,
       nothing_to_do},
      {{"--use_fast_math",
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
        "-Xptxas=-v"},
       Takes::nothing,
       nullptr,
       kGpuOnly,
       nothing_to_do},
      // Joined GPU-only values (-arch=sm_90, -gencodearch=...), after the exact spellings above.
      {{"-arch", "-gencode", "-Xptxas"}, Takes::prefix, nullptr, kGpuOnly, nothing_to_do},
      {{"-l", "--library"},
       Takes::joined,
       "LIB",
       "link LIB (the CUDA runtime's are left out)",
       [](Options& o, ParseState&, const std::string&, const std::string& lib) {
         if (!cuda_libraries.count(lib)) o.link.push_back("-l" + lib);
       }},
      {{"-L", "--library-path"},
       Takes::joined,
       "DIR",
       "search DIR for libraries",
       [](Options& o, ParseState&, const std::string&, const std::string& v) {
         o.link.push_back("-L" + v);
       }},
      {{"-pthread", "-shared", "-static", "-rdynamic"},
       Takes::nothing,
       nullptr,
       "passed to the host compiler and the linker",
       [](Options& o, ParseState&, const std::string& a, const std::string&) {
         o.compile.push_back(a);
         o.link.push_back(a);
       }},
      {{"-O", "-g", "-W", "-f", "-m", "-pg"},
       Takes::prefix,
       nullptr,
       "passed to the host compiler (-O2, -g, -Wall, -fopenmp, -march=native, ...)",
       [](Options& o, ParseState&, const std::string& a, const std::string&) {
         o.compile.push_back(a);
       }},
  };
  return r;
}

// Whether `a` is written as `rule`'s spelling `name`; `value` is its value where it takes one.
// `at_next`: the value is the next argument.
bool matches(const Rule& rule, const std::string& name, bool first_name, const std::string& a,
             std::string& value, bool& at_next) {
  at_next = false;
  switch (rule.takes) {
    case Takes::nothing:
      return a == name;
    case Takes::prefix:
      return starts_with(a, name);
    case Takes::value:
    case Takes::joined:
      if (a == name) {
        at_next = true;
        return true;
      }
      if (starts_with(a, name + "=")) {
        value = a.substr(name.size() + 1);
        return true;
      }
      if (rule.takes == Takes::joined && first_name && starts_with(a, name)) {
        value = a.substr(name.size());
        return true;
      }
      return false;
  }
  return false;
}

}  // namespace

bool wants_help(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "-h" || a == "--help") return true;
  return false;
}

void print_usage(std::ostream& out) {
  out << "usage: gpulab sim-cc [options] file...\n"
         "Builds a CUDA program for gpulab's CPU backend, which runs its kernels on the CPU and "
         "checks them\nfor races, out-of-bounds accesses and missing __syncthreads(); it takes "
         "nvcc's command line.\nInputs: .cu (CUDA), .cpp/.cc/.cxx (C++), .c, objects and "
         "archives.\n\n  -h, --help  print this and exit\n";
  std::string gpu_only;
  for (const Rule& r : rules()) {
    if (r.help == kGpuOnly) {
      for (const auto& n : r.names)
        if (r.takes != Takes::prefix) gpu_only += (gpu_only.empty() ? "" : " ") + n;
      continue;
    }
    std::string spelling;
    for (const auto& n : r.names) {
      spelling += (spelling.empty() ? "" : ", ") + n;
      if (r.takes == Takes::prefix) spelling += "...";
    }
    if (r.value_name) spelling += std::string(" ") + r.value_name;
    out << "  " << spelling << "\n      " << r.help << "\n";
  }
  // Wrapped at about 80 columns.
  out << "  GPU-only, accepted and ignored:\n     ";
  size_t column = 5;
  std::istringstream words(gpu_only);
  for (std::string w; words >> w;) {
    if (column + w.size() + 1 > 80) {
      out << "\n     ";
      column = 5;
    }
    out << " " << w;
    column += w.size() + 1;
  }
  out << "\nEnvironment: GPULAB_SIM_KEEP (keep the temporary folder), GPULAB_SIM_REWRITER, "
         "GPULAB_SIM_INCLUDE,\nGPULAB_SIM_LIB, GPULAB_SIM_CXX, GPULAB_SIM_CCCL_INCLUDE (where "
         "its pieces are). See sim/README.md.\n";
}

bool parse_options(const std::vector<std::string>& args, Options& o, std::ostream& err) {
  ParseState st;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.empty()) continue;
    if (a[0] != '-' || a == "-") {
      Lang lang = Lang::object;
      std::string ext = extension(a);
      if (st.has_forced) {
        lang = st.forced;
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
    const Rule* found = nullptr;
    std::string value;
    bool at_next = false;
    for (const Rule& r : rules()) {
      for (size_t n = 0; n < r.names.size() && !found; ++n)
        if (matches(r, r.names[n], n == 0, a, value, at_next)) found = &r;
      if (found) break;
    }
    if (!found) {
      err << "gpulab sim-cc: unknown option " << a << " (gpulab sim-cc --help lists them)\n";
      return false;
    }
    if (at_next) {
      if (i + 1 >= args.size()) {
        err << "gpulab sim-cc: option " << a << " needs a value\n";
        return false;
      }
      value = args[++i];
    }
    found->apply(o, st, a, value);
  }
  if (o.inputs.empty()) {
    err << "gpulab sim-cc: no input files\n";
    return false;
  }
  if ((o.compile_only || o.dependencies_only) && !o.output.empty() && o.inputs.size() > 1) {
    err << "gpulab sim-cc: " << (o.dependencies_only ? "-M" : "-c")
        << " with -o takes one input file\n";
    return false;
  }
  return true;
}

}  // namespace gpulab_sim_cc
