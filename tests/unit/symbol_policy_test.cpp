// grader/build/symbol_policy.h: which global symbols a submission's objects may define, from nm's
// listings of the objects and of the libraries the runner links.
#include "build/symbol_policy.h"

#include <doctest/doctest.h>

namespace {

using gpulab::Binding;
using gpulab::LinkedLibrary;
using gpulab::NmSymbol;
using gpulab::SymbolFinding;
using gpulab::SymbolPolicy;

// std::chrono::steady_clock::now(): not inline in the headers, so libstdc++ defines it strongly.
const std::string kSteadyNow = "_ZNSt6chrono3_V212steady_clock3nowEv";
// An instantiation libstdc++ exports and every object using std::string may carry (weak in both).
const std::string kStringConstruct =
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructIPKcEEvT_S8_St20forward_"
    "iterator_tag";
const std::string kTimeCpu = "_ZN6gpulab8time_cpuERKNS_12TimingPolicyEiRKSt8functionIFviEES7_";
// An instantiation of the harness's: std::function's handler of a lambda inside gpulab::time_cpu.
const std::string kTimingLambdaHandler =
    "_ZNSt17_Function_handlerIFdiEZN6gpulab8time_cpuERKNS1_12TimingPolicyEiRKSt8functionIFviEES8_"
    "EUliE_E9_M_invokeERKSt9_Any_dataOi";
const std::string kVectorDoublePush = "_ZNSt6vectorIdSaIdEE9push_backERKd";
const std::string kInterface = "_Z12dcs_cpu_fastPKfi7LatticePf";

std::vector<LinkedLibrary> libraries() {
  return {
      {"gpulab's harness",
       true,
       {{kTimeCpu, 'T'},
        {kVectorDoublePush, 'W'},
        {"main", 'T'},
        {"DW.ref.__gxx_personality_v0", 'V'}}},
      {"the lab's driver",
       true,
       {{kInterface, 'U'}, {"nvtxRangePop_impl_init_v3", 'W'}, {"clock_gettime", 'U'}}},
      {"the CUDA runtime", false, {{"cudaEventElapsedTime", 'T'}}},
      {"the C library",
       false,
       {{"clock_gettime", 'T'}, {"gettimeofday", 'W'}, {"environ", 'V'}, {"stdout", 'D'}}},
      {"the C++ standard library",
       false,
       {{kSteadyNow, 'T'}, {kStringConstruct, 'W'}, {"_ZNSt6locale2idE", 'u'}}},
  };
}

std::vector<SymbolFinding> check(const std::vector<NmSymbol>& object) {
  const auto libs = libraries();
  return SymbolPolicy(libs, gpulab::interface_names(libs[1].symbols, libs)).check(object);
}

// The library a lone finding names, or "" when the definition is allowed.
std::string refused_by(const std::string& name, char type) {
  const auto findings = check({{name, type}});
  REQUIRE(findings.size() <= 1);
  return findings.empty() ? "" : findings[0].library;
}

}  // namespace

TEST_CASE("parse_nm reads nm -P's lines and skips the rest") {
  const auto symbols = gpulab::parse_nm(
      "lib.a[timing.cpp.o]:\n"
      "_ZN6gpulab8time_cpuEv T 0000000000000000 0000000000000010\n"
      "clock_gettime U\n"
      "clock_gettime@@GLIBC_2.17 T 00000000000c8e30 0000000000000075\n"
      "nm: warning: something odd\n"
      "\n"
      "nm: dcs.cu.o: no symbols\n"
      "DW.ref.__gxx_personality_v0 V 0 8\n");
  REQUIRE(symbols.size() == 4);
  CHECK(symbols[0].name == "_ZN6gpulab8time_cpuEv");
  CHECK(symbols[0].type == 'T');
  CHECK(symbols[1].type == 'U');
  CHECK(symbols[2].name == "clock_gettime");  // the version is not part of the name
  CHECK(symbols[3].type == 'V');
}

TEST_CASE("binding_of: global, weak, unique and what the linker never sees") {
  CHECK(gpulab::binding_of('T') == Binding::strong);
  CHECK(gpulab::binding_of('D') == Binding::strong);
  CHECK(gpulab::binding_of('B') == Binding::strong);
  CHECK(gpulab::binding_of('i') == Binding::strong);  // an indirect function is global
  CHECK(gpulab::binding_of('W') == Binding::weak);
  CHECK(gpulab::binding_of('V') == Binding::weak);
  CHECK(gpulab::binding_of('u') == Binding::unique);
  CHECK(gpulab::binding_of('t') == Binding::none);
  CHECK(gpulab::binding_of('U') == Binding::none);
  CHECK(gpulab::binding_of('w') == Binding::none);
}

TEST_CASE("a library's function or variable defined by a submission is refused") {
  CHECK(refused_by("clock_gettime", 'T') == "the C library");
  CHECK(refused_by("cudaEventElapsedTime", 'T') == "the CUDA runtime");
  CHECK(refused_by("main", 'T') == "gpulab's harness");
  CHECK(refused_by(kTimeCpu, 'T') == "gpulab's harness");
  CHECK(refused_by(kSteadyNow, 'T') == "the C++ standard library");
  const auto environ = check({{"environ", 'B'}});
  REQUIRE(environ.size() == 1);
  CHECK_FALSE(environ[0].function);
}

TEST_CASE("weak C-linkage definitions still replace a shared library's symbols") {
  CHECK(refused_by("clock_gettime", 'W') == "the C library");
  // The C library's own weak alias does not make a weak copy harmless.
  CHECK(refused_by("gettimeofday", 'W') == "the C library");
  // The harness's strong main wins over a weak one, but a weak main is no less a replacement.
  CHECK(refused_by("main", 'W') == "gpulab's harness");
}

TEST_CASE("weak copies of header code are allowed, weak replacements of strong symbols not") {
  // std::string's instantiation: weak in libstdc++ and in every object that uses it.
  CHECK(refused_by(kStringConstruct, 'W') == "");
  // The harness's instantiation: linked first, so its copy is kept.
  CHECK(refused_by(kVectorDoublePush, 'W') == "");
  // NVTX's header-only weak C functions, in the driver (linked first) and in a CUB user.
  CHECK(refused_by("nvtxRangePop_impl_init_v3", 'W') == "");
  // The compiler's pointer to the personality routine, in every object with exceptions.
  CHECK(refused_by("DW.ref.__gxx_personality_v0", 'V') == "");
  // An inline steady_clock::now() would stand in for libstdc++'s.
  CHECK(refused_by(kSteadyNow, 'W') == "the C++ standard library");
  // An explicit specialization is strong, and wins over the harness's weak instantiation.
  CHECK(refused_by(kVectorDoublePush, 'T') == "gpulab's harness");
}

TEST_CASE("unique definitions meet only unique ones") {
  CHECK(refused_by("_ZNSt6locale2idE", 'u') == "");
  CHECK(refused_by(kVectorDoublePush, 'u') == "gpulab's harness");
}

TEST_CASE("nothing of namespace gpulab may be defined, weak or not, in a library or not") {
  CHECK(refused_by("_ZN6gpulab8time_gpuEv", 'W') == "gpulab's harness");
  CHECK(refused_by("_ZN6gpulab11not_a_thingEv", 'T') == "gpulab's harness");
  CHECK(refused_by(kTimingLambdaHandler, 'W') == "gpulab's harness");
  CHECK(gpulab::names_gpulab("_ZTVN6gpulab7GpuClockE"));           // its vtable
  CHECK(gpulab::names_gpulab("_ZZN6gpulab8time_cpuEvE5count"));    // a static local of it
  CHECK_FALSE(gpulab::names_gpulab("_ZN10gpulab_sim6accessEPv"));  // the sim's namespace
  CHECK_FALSE(gpulab::names_gpulab("_Z16gpulab_whateversv"));
  CHECK_FALSE(gpulab::names_gpulab("gpulab"));  // a C name is checked against the libraries
}

TEST_CASE("the lab's interface, local symbols and the submission's own names are allowed") {
  CHECK(refused_by(kInterface, 'T') == "");
  CHECK(refused_by("clock_gettime", 't') == "");  // static: local to its object
  CHECK(refused_by("_Z9my_kernelPfi", 'T') == "");
  CHECK(refused_by("my_table", 'B') == "");
  // What the driver takes from another library is not the interface.
  const auto libs = libraries();
  CHECK(gpulab::interface_names(libs[1].symbols, libs) == std::set<std::string>{kInterface});
}

TEST_CASE("each refused name is reported once, in the object's order") {
  const auto findings = check({{"cudaEventElapsedTime", 'T'},
                               {"clock_gettime", 'T'},
                               {"clock_gettime", 'T'},
                               {"_Z6helperv", 'T'}});
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].symbol == "cudaEventElapsedTime");
  CHECK(findings[1].symbol == "clock_gettime");
}

TEST_CASE("describe_finding names the file, the symbol and its library") {
  CHECK(gpulab::describe_finding("dcs.cu", "clock_gettime",
                                 {"clock_gettime", "the C library", true}, "dcs.h") ==
        "dcs.cu defines clock_gettime, a function of the C library; a submission may define only "
        "the functions of dcs.h and names of its own. Rename it.");
  CHECK(gpulab::describe_finding("dcs.cu", "environ", {"environ", "the C library", false}, "dcs.h")
            .find("environ, a variable of the C library") != std::string::npos);
}
