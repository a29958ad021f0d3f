// End to end: each program in programs/ is built with the sim-cc driver (rewriter, g++, the
// runtime) and run; it must print its success line, exit 0, and draw no finding from the
// runtime's checkers (they are all correct programs).
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "options.h"
#include "sim_cc.h"

namespace {

struct Run {
  int status;
  std::string output;
};

Run run(const std::string& command) {
  Run r{-1, ""};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return r;
}

std::string program(const std::string& name) {
  return std::string(GPULAB_TEST_PROGRAMS) + "/" + name;
}

std::string output_path(const std::string& name) {
  std::filesystem::create_directories(GPULAB_TEST_OUTPUT);
  return std::string(GPULAB_TEST_OUTPUT) + "/" + name;
}

// Builds programs/NAME.cu with `flags` and runs it.
Run build_and_run(const std::string& name, std::vector<std::string> flags = {}) {
  std::string exe = output_path(name);
  std::vector<std::string> args = {program(name + ".cu"), "-o", exe};
  args.insert(args.end(), flags.begin(), flags.end());
  std::ostringstream messages;
  int rc = gpulab_sim_cc::sim_cc(args, messages);
  INFO("sim-cc said:\n" << messages.str());
  REQUIRE(rc == 0);
  return run(exe);
}

void check_program(const std::string& name, const std::string& expected,
                   std::vector<std::string> flags = {}) {
  Run r = build_and_run(name, flags);
  INFO(name << " printed:\n" << r.output);
  CHECK(r.status == 0);
  CHECK(r.output.find(expected) != std::string::npos);
  CHECK(r.output.find("gpulab sim:") == std::string::npos);
}

}  // namespace

TEST_SUITE("e2e") {
  TEST_CASE("vector add, a textbook program with its own main and error checks") {
    check_program("vector_add", "Test PASSED", {"-O2", "-arch=sm_80", "--use_fast_math"});
  }
  TEST_CASE("reduction with __shared__ and __syncthreads") {
    check_program("reduction", "reduction -5 OK");
  }
  TEST_CASE("template kernels with deduced and explicit arguments") {
    check_program("template_kernel", "templates OK");
  }
  TEST_CASE("lambdas and macros in launch arguments, a launch inside a macro") {
    check_program("lambda_macro_launch", "lambda and macro launches OK");
  }
  TEST_CASE("dynamic shared memory and a stream argument") {
    check_program("dynamic_shared_stream", "dynamic shared OK");
  }
  TEST_CASE("__constant__ memory with cudaMemcpyToSymbol") {
    check_program("constant_symbol", "constant memory OK");
  }
  TEST_CASE("warp-shuffle reduction") {
    check_program("warp_shuffle", "warp shuffle OK");
  }
  TEST_CASE("atomicAdd histogram") {
    check_program("atomic_histogram", "histogram OK");
  }
  TEST_CASE("a global spin lock around plain writes: right, and no race reported") {
    check_program("spin_lock", "spin lock OK");
  }
  TEST_CASE("tiled matrix multiply with dim3 and 2D shared tiles") {
    check_program("matmul_tiled", "matrix multiply PASSED", {"-DUNUSED=1", "-Xcompiler=-O1"});
  }
  TEST_CASE("Thrust sort and reduce on the C++ back-end") {
    check_program("thrust_sort_reduce", "thrust OK");
  }
  TEST_CASE("host code with x86 intrinsics (<xmmintrin.h>, <immintrin.h>) builds as under nvcc") {
    check_program("x86_intrinsics", "x86 intrinsics OK", {"-O2"});
  }
  TEST_CASE("kernels, __shared__ and launches in the student's own headers") {
    check_program("with_header", "headers OK", {"-I", program("with_header")});
  }
  TEST_CASE("--unchecked: no checks, barrier-free kernels without fibers, the same results") {
    // vector_add and constant_symbol launch only barrier-free kernels, template_kernel and
    // lambda_macro_launch both kinds; reduction, warp_shuffle and atomic_histogram need the
    // fibers (barriers, warp operations, shared memory).
    for (const auto& [name, expected] :
         {std::pair{"vector_add", "Test PASSED"},
          std::pair{"constant_symbol", "constant memory OK"},
          std::pair{"template_kernel", "templates OK"},
          std::pair{"lambda_macro_launch", "lambda and macro launches OK"},
          std::pair{"reduction", "reduction -5 OK"}, std::pair{"warp_shuffle", "warp shuffle OK"},
          std::pair{"atomic_histogram", "histogram OK"}})
      check_program(name, expected, {"--unchecked"});
  }
  TEST_CASE("separate compilation: a .cu compiled with -c, linked with a .cpp") {
    std::ostringstream messages;
    std::string object = output_path("multi_kernels.o"), exe = output_path("multi");
    CHECK(gpulab_sim_cc::sim_cc({"-c", program("multi_kernels.cu"), "-o", object, "-lineinfo"},
                                messages) == 0);
    CHECK(gpulab_sim_cc::sim_cc({program("multi_main.cpp"), object, "-o", exe, "-lcudart"},
                                messages) == 0);
    INFO(messages.str());
    Run r = run(exe);
    CHECK(r.status == 0);
    CHECK(r.output.find("two files OK") != std::string::npos);
  }
  TEST_CASE("a compile error names the student's file and line") {
    std::ostringstream messages;
    int rc = gpulab_sim_cc::sim_cc(
        {program("compile_error.cu"), "-o", output_path("compile_error")}, messages);
    INFO(messages.str());
    CHECK(rc != 0);
    CHECK(messages.str().find("compile_error.cu:6:3: error") != std::string::npos);
  }
  // -M: the headers a file includes as its compile reads them (the grader's list of a student's
  // headers, grader/sandbox/runner_recipe.h's include_tree_command): g++ -M of the original with
  // the sim header first and Thrust from CCCL, -H's tree on the messages.
  TEST_CASE("-M lists the headers the compile reads") {
    std::ostringstream messages;
    const std::string deps = output_path("thrust_sort_reduce.d");
    std::filesystem::remove(deps);
    CHECK(gpulab_sim_cc::sim_cc(
              {"-M", program("thrust_sort_reduce.cu"), "-o", deps, "-Xcompiler", "-H,-w"},
              messages) == 0);
    const std::string tree = messages.str();
    INFO(tree.substr(0, 2000));
    CHECK(tree.find(". ") != std::string::npos);
    CHECK(tree.find("/thrust/sort.h\n") != std::string::npos);
    std::ifstream in(deps);
    const std::string rule{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    CHECK(rule.find("gpulab_sim/sim.h") != std::string::npos);    // what the rewrite puts first
    CHECK(rule.find("thrust/system/cpp/") != std::string::npos);  // Thrust's C++ back-end
  }

  // --help prints the list the parser reads: every spelling it shows is taken (with a value
  // where it shows one), and nothing else is.
  TEST_CASE("--help lists the options the parser takes") {
    std::ostringstream usage;
    gpulab_sim_cc::print_usage(usage);
    CHECK(gpulab_sim_cc::wants_help({"-h"}));
    CHECK(gpulab_sim_cc::wants_help({"prog.cu", "--help"}));
    CHECK_FALSE(gpulab_sim_cc::wants_help({"prog.cu"}));
    std::istringstream lines(usage.str());
    int checked = 0;
    bool gpu_only = false;
    for (std::string line; std::getline(lines, line);) {
      std::vector<std::string> names;
      std::string value;
      if (line.rfind("  GPU-only", 0) == 0) {
        gpu_only = true;
        continue;
      }
      if (gpu_only && line.rfind("      -", 0) == 0) {  // the GPU-only spellings, a line of them
        std::istringstream words(line);
        for (std::string w; words >> w;) names.push_back(w);
        value = "sm_90";  // taken by those that take a value, an input file for the others
      } else if (line.rfind("  -", 0) == 0 && line.rfind("  -h,", 0) != 0) {
        gpu_only = false;
        std::string spellings = line.substr(2);
        const size_t space = spellings.find(' ');
        if (space != std::string::npos) {
          value = "v";
          spellings = spellings.substr(0, space);
        }
        for (size_t start = 0; start < spellings.size();) {
          const size_t comma = std::min(spellings.find(',', start), spellings.size());
          std::string n = spellings.substr(start, comma - start);
          if (n.size() > 3 && n.compare(n.size() - 3, 3, "...") == 0) n.resize(n.size() - 3);
          names.push_back(n);
          start = comma + 1;
          while (start < spellings.size() && spellings[start] == ' ') ++start;
        }
      }
      for (const auto& n : names) {
        std::vector<std::string> args = {n};
        if (!value.empty()) args.push_back(value);
        args.push_back("prog.cu");
        gpulab_sim_cc::Options o;
        std::ostringstream err;
        CHECK_MESSAGE(gpulab_sim_cc::parse_options(args, o, err), n << ": " << err.str());
        ++checked;
      }
    }
    CHECK(checked > 60);  // the options and the GPU-only spellings
    CHECK(usage.str().find("--no-such-option") == std::string::npos);
  }

  TEST_CASE("an unknown option is refused") {
    std::ostringstream messages;
    CHECK(gpulab_sim_cc::sim_cc({program("vector_add.cu"), "--no-such-option"}, messages) == 2);
    CHECK(messages.str().find("unknown option --no-such-option") != std::string::npos);
  }
}
