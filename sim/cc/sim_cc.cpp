// The driver's flow: rewrite each .cu into a temporary directory, compile every source with
// g++ against the sim headers, link with the runtime. Each step's messages go to `err`
// unchanged: the rewritten files start with #line, so they name the student's files and lines.
#include "sim_cc.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "options.h"
#include "run_command.h"

#if !defined(GPULAB_SIM_REWRITER) || !defined(GPULAB_SIM_INCLUDE_DIR) || \
    !defined(GPULAB_SIM_LIBRARY) || !defined(GPULAB_SIM_CXX) || !defined(GPULAB_SIM_CCCL_INCLUDE)
#error "the build must define where the rewriter, the sim headers and library and g++ are"
#endif

namespace fs = std::filesystem;

namespace gpulab_sim_cc {
namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// A temporary directory, removed at the end unless GPULAB_SIM_KEEP is set (to look at the
// rewritten sources).
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gpulab-sim-cc-XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty() && !std::getenv("GPULAB_SIM_KEEP")) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class Driver {
 public:
  Driver(const Options& o, const Paths& p, std::ostream& err, const std::string& tmp)
      : o_(o), p_(p), err_(err), tmp_(tmp) {}

  int run() {
    if (o_.dependencies_only) {
      for (const Input& in : o_.inputs)
        if (in.lang != Lang::object)
          if (int rc = dependencies(in)) return rc;
      return 0;
    }
    std::vector<std::string> objects;
    int index = 0;
    for (const Input& in : o_.inputs) {
      if (in.lang == Lang::object) continue;  // linked in its place among the options
      std::string object = object_path(in, index++);
      if (int rc = compile(in, object)) return rc;
      objects.push_back(object);
    }
    if (o_.compile_only) return 0;
    std::vector<std::string> cmd = {p_.cxx};
    cmd.insert(cmd.end(), o_.compile.begin(), o_.compile.end());
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    cmd.push_back("-o");
    cmd.push_back(o_.output.empty() ? "a.out" : o_.output);
    cmd.insert(cmd.end(), o_.link.begin(), o_.link.end());
    // After the user's libraries, which may have been built with sim-cc too.
    cmd.insert(cmd.end(), {p_.library, "-lboost_context", "-pthread"});
    return run_command(cmd, err_);
  }

 private:
  std::string object_path(const Input& in, int index) {
    std::string stem = fs::path(in.path).stem().string();
    if (!o_.compile_only) return tmp_ + "/" + std::to_string(index) + "_" + stem + ".o";
    return o_.output.empty() ? stem + ".o" : o_.output;
  }

  // -I, -D, ... as the user gave them, less include directories of a CUDA installation (a
  // Makefile's -I/usr/local/cuda/include): their cuda_runtime.h would hide the sim one.
  std::vector<std::string> preprocessor() {
    std::vector<std::string> out;
    for (const std::string& a : o_.preprocessor) {
      if (a.rfind("-I", 0) == 0 && fs::exists(fs::path(a.substr(2)) / "cuda_runtime.h")) continue;
      out.push_back(a);
    }
    // Thrust runs on its C++ back-end, with CCCL's headers after the sim ones. GPULAB_SIM_BACKEND
    // lets trusted code (a lab's CUB baseline, which has no CPU back-end) leave itself out.
    out.push_back("-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP");
    out.push_back("-DGPULAB_SIM_BACKEND=1");
    if (!p_.cccl_include.empty()) {
      out.push_back("-isystem");
      out.push_back(p_.cccl_include);
    }
    return out;
  }

  // For each -I directory at or below the .cu's directory, the same directory among the
  // rewritten headers, searched first (for `#include <header>` of the student's headers).
  std::vector<std::string> mirrored_include_dirs(const std::string& cu, const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    fs::path base = fs::weakly_canonical(fs::absolute(cu, ec).parent_path(), ec);
    for (const std::string& a : o_.preprocessor) {
      if (a.rfind("-I", 0) != 0) continue;
      fs::path include = fs::weakly_canonical(fs::absolute(a.substr(2), ec), ec);
      std::string relative = include.lexically_relative(base).string();
      if (relative.empty() || relative.rfind("..", 0) == 0) continue;
      out.push_back("-I" + (fs::path(dir) / relative).lexically_normal().string());
    }
    return out;
  }

  // g++ for `in`, up to its input: the language, the sim headers, `search` (where quoted
  // includes are looked up first), the preprocessor's and the compiler's options.
  std::vector<std::string> host_compiler(const Input& in, const std::vector<std::string>& search) {
    std::vector<std::string> cmd = {p_.cxx};
    if (in.lang == Lang::c) {
      cmd.insert(cmd.end(), {"-x", "c"});
    } else {
      cmd.insert(cmd.end(), {"-x", "c++", "-std=" + o_.std});
    }
    cmd.insert(cmd.end(), {"-isystem", p_.include_dir});
    // The rewritten file lives elsewhere: its quoted includes are looked up beside the original.
    std::string dir = fs::path(in.path).parent_path().string();
    cmd.insert(cmd.end(), {"-iquote", dir.empty() ? "." : dir});
    cmd.insert(cmd.end(), search.begin(), search.end());
    std::vector<std::string> pp = preprocessor();
    cmd.insert(cmd.end(), pp.begin(), pp.end());
    cmd.insert(cmd.end(), o_.compile.begin(), o_.compile.end());
    return cmd;
  }

  // g++'s -M of the input as compile() builds it: a .cu's rewritten file is the original with
  // the sim header included first and edits that touch no directive, so g++ reads the same
  // headers from the original with that header included first (-include).
  int dependencies(const Input& in) {
    std::vector<std::string> first;
    if (in.lang == Lang::cuda) first = {"-include", "gpulab_sim/sim.h"};
    std::vector<std::string> cmd = host_compiler(in, first);
    cmd.insert(cmd.end(), {"-M", in.path});
    if (!o_.output.empty()) cmd.insert(cmd.end(), {"-o", o_.output});
    return run_command(cmd, err_);
  }

  int compile(const Input& in, const std::string& object) {
    std::string source = in.path;
    std::vector<std::string> mirrors;
    if (in.lang == Lang::cuda) {
      // Each .cu gets its own directory: its rewritten headers land there too, at their paths
      // relative to the .cu, so that its quoted includes find them first.
      std::string dir = tmp_ + "/cu" + std::to_string(next_cu_++);
      source = dir + "/" + fs::path(in.path).stem().string() + ".sim.cpp";
      mirrors = mirrored_include_dirs(in.path, dir);
      std::vector<std::string> cmd = {p_.rewriter, in.path, "-o", source, "--"};
      cmd.push_back("-std=" + o_.std);
      std::vector<std::string> pp = preprocessor();
      cmd.insert(cmd.end(), pp.begin(), pp.end());
      if (int rc = run_command(cmd, err_)) return rc;
    }
    std::vector<std::string> cmd = host_compiler(in, mirrors);
    cmd.insert(cmd.end(), {"-c", source, "-o", object});
    return run_command(cmd, err_);
  }

  const Options& o_;
  const Paths& p_;
  std::ostream& err_;
  std::string tmp_;
  int next_cu_ = 0;
};

}  // namespace

Paths default_paths() {
  return {env_or("GPULAB_SIM_REWRITER", GPULAB_SIM_REWRITER),
          env_or("GPULAB_SIM_INCLUDE", GPULAB_SIM_INCLUDE_DIR),
          env_or("GPULAB_SIM_LIB", GPULAB_SIM_LIBRARY), env_or("GPULAB_SIM_CXX", GPULAB_SIM_CXX),
          env_or("GPULAB_SIM_CCCL_INCLUDE", GPULAB_SIM_CCCL_INCLUDE)};
}

int sim_cc(const std::vector<std::string>& args, std::ostream& err) {
  return sim_cc(args, err, default_paths());
}

int sim_cc(const std::vector<std::string>& args, std::ostream& err, const Paths& paths) {
  if (wants_help(args)) {
    print_usage(std::cout);
    return 0;
  }
  Options options;
  if (!parse_options(args, options, err)) return 2;
  TempDir tmp;
  if (tmp.path().empty()) {
    err << "gpulab sim-cc: cannot create a temporary directory\n";
    return 1;
  }
  if (std::getenv("GPULAB_SIM_KEEP")) err << "gpulab sim-cc: keeping " << tmp.path() << "\n";
  return Driver(options, paths, err, tmp.path()).run();
}

}  // namespace gpulab_sim_cc
