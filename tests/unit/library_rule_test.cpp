// lab.json's "library" (grader/lab/library_policy.h) and the build's two checks of it
// (grader/build/library_rule.h): the compiler's list of a file's headers
// (grader/build/include_tree.h), line markers that would make it lie (grader/build/line_markers.h),
// the kinds' table (grader/lab/library_work.def) and the names in an object. The lists of headers
// below are excerpts of what g++'s -H printed under nvcc 13 -M for the includes named (CCCL at
// /usr/local/cuda-13.0/include/cccl), the symbols what nm and c++filt printed for its objects;
// the last tests run the compiler itself. The build's own use of them is exercised end to end by
// tests/adversarial/{scan,histogram}/.
#include "build/library_rule.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "build/build.h"
#include "build/include_tree.h"
#include "build/line_markers.h"
#include "files/paths.h"
#include "lab/lab_config.h"
#include "os/process.h"
#include "sandbox/runner_recipe.h"
#include "test_util.h"

namespace {

using namespace gpulab;
namespace fs = std::filesystem;

const std::string kCccl = "/usr/local/cuda-13.0/include/cccl/";

// A -H list from lines "<depth> <path below CCCL>", as g++ prints it.
std::string h_output(const std::vector<std::pair<int, std::string>>& lines) {
  std::string out;
  for (const auto& [depth, path] : lines)
    out += std::string(depth, '.') + " " + (path[0] == '/' ? path : kCccl + path) + "\n";
  return out;
}

LibraryPolicy policy(std::vector<std::string> allowed, std::vector<std::string> forbidden) {
  return {std::move(allowed), std::move(forbidden), "write it yourself"};
}

const LibraryPolicy kHistogram =
    policy({"sort"}, {"reduction", "histogram", "scan", "search", "run-length", "reduce-by-key",
                      "segmented-reduction"});
const LibraryPolicy kScan = policy({}, {"scan", "segmented-reduction", "reduce-by-key"});

// thrust/execution_policy.h then thrust/sort.h, as the histogram reference includes them: the
// execution policy brings Thrust's sequential sort, which uses copy_if and so thrust/scan.h and
// CUB's scan; thrust/sort.h brings CUB's radix sort, and thrust's extrema with CUB's reduction.
const std::string kPolicyThenSort = h_output({
    {1, "thrust/execution_policy.h"},
    {2, "thrust/detail/config.h"},
    {2, "thrust/system/cpp/execution_policy.h"},
    {3, "thrust/system/cpp/detail/sort.h"},
    {4, "thrust/system/detail/sequential/sort.h"},
    {5, "thrust/system/detail/sequential/sort.inl"},
    {6, "thrust/system/detail/sequential/stable_primitive_sort.h"},
    {7, "thrust/system/detail/sequential/stable_primitive_sort.inl"},
    {8, "thrust/system/detail/sequential/stable_radix_sort.h"},
    {9, "thrust/system/detail/sequential/stable_radix_sort.inl"},
    {10, "thrust/copy.h"},
    {11, "thrust/detail/copy_if.h"},
    {12, "thrust/detail/copy_if.inl"},
    {13, "thrust/system/detail/adl/copy_if.h"},
    {14, "thrust/system/detail/generic/copy_if.h"},
    {15, "thrust/system/detail/generic/copy_if.inl"},
    {16, "thrust/scan.h"},
    {17, "thrust/detail/scan.inl"},
    {18, "thrust/system/detail/adl/scan.h"},
    {19, "thrust/system/cuda/detail/scan.h"},
    {20, "cub/device/device_scan.cuh"},
    {1, "thrust/sort.h"},
    {2, "thrust/detail/sort.inl"},
    {3, "thrust/system/detail/adl/sort.h"},
    {4, "thrust/system/cuda/detail/sort.h"},
    {5, "cub/device/device_radix_sort.cuh"},
    {5, "thrust/extrema.h"},
    {6, "thrust/detail/extrema.inl"},
    {7, "thrust/system/detail/adl/extrema.h"},
    {8, "thrust/system/cuda/detail/extrema.h"},
    {9, "thrust/system/cuda/detail/reduce.h"},
    {10, "cub/device/device_reduce.cuh"},
    {11, "cub/device/dispatch/dispatch_reduce.cuh"},
    {12, "cub/device/dispatch/kernels/reduce.cuh"},
    {13, "cub/agent/agent_reduce.cuh"},
    {14, "cub/block/block_reduce.cuh"},
});
const std::string kPolicyThenSortSource =
    "// histogram.cu\n#include <thrust/execution_policy.h>\n#include <thrust/sort.h>\n";

// cub/cub.cuh, the umbrella: every kind of CUB's work under one include.
const std::string kUmbrella = h_output({
    {1, "cub/cub.cuh"},
    {2, "cub/config.cuh"},
    {2, "cub/block/block_histogram.cuh"},
    {3, "cub/block/specializations/block_histogram_sort.cuh"},
    {4, "cub/block/block_radix_sort.cuh"},
    {5, "cub/block/block_radix_rank.cuh"},
    {6, "cub/block/block_scan.cuh"},
    {2, "cub/device/device_histogram.cuh"},
    {2, "cub/device/device_scan.cuh"},
});

void check_finding(const HeaderFinding& f, const std::string& included, int line,
                   const std::string& header, const std::string& kind) {
  CHECK(f.included == included);
  CHECK(f.line == line);
  CHECK(f.header == header);
  CHECK(f.kind->name == kind);
}

std::vector<std::string> kinds_of(const std::vector<HeaderFinding>& findings) {
  std::vector<std::string> kinds;
  for (const HeaderFinding& f : findings) kinds.push_back(f.kind->name);
  return kinds;
}

}  // namespace

TEST_CASE("library work: each header of the table is one of the toolkit's") {
  const fs::path include = Paths::current().nvcc.parent_path().parent_path() / "include";
  if (!fs::is_directory(include / "cccl" / "cub")) return;  // no CUDA toolkit here
  std::vector<std::string> headers;
  for (const auto& e : fs::recursive_directory_iterator(include))
    if (e.is_regular_file() && !library_header(e.path().string()).empty())
      headers.push_back(library_header(e.path().string()));
  for (const LibraryWork& kind : library_work())
    for (const std::string& pattern : kind.headers) {
      INFO(kind.name << ": " << pattern);
      CHECK(std::any_of(headers.begin(), headers.end(),
                        [&](const std::string& h) { return header_pattern_matches(pattern, h); }));
    }
}

TEST_CASE("library work: a header's kinds, from CCCL's path below its include folder") {
  CHECK(library_header(kCccl + "cub/block/block_scan.cuh") == "cub/block/block_scan.cuh");
  CHECK(library_header("/opt/cub/cuda/include/cccl/cub/../cub/block/block_scan.cuh") ==
        "cub/block/block_scan.cuh");
  CHECK(library_header("/proc/self/cwd/../thrust/scan.h") == "thrust/scan.h");
  CHECK(library_header("/usr/include/stdio.h").empty());
  CHECK(library_header("/usr/include/cub").empty());
  CHECK(library_header("/usr/local/cuda/include/cooperative_groups/scan.h") ==
        "cooperative_groups/scan.h");
  CHECK(library_header("/usr/local/cuda/include/cooperative_groups.h").empty());
  CHECK(header_pattern_matches("cub/agent/agent_scan*.cuh", "cub/agent/agent_scan_by_key.cuh"));
  CHECK_FALSE(header_pattern_matches("cub/agent/agent_scan*.cuh", "cub/agent/agent_reduce.cuh"));
  // A `*` stays within one name.
  CHECK(header_pattern_matches("thrust/system/*/detail/sort.h", "thrust/system/cpp/detail/sort.h"));
  CHECK_FALSE(header_pattern_matches("thrust/system/*/detail/sort.h",
                                     "thrust/system/detail/sequential/detail/sort.h"));
  const auto names = [](const std::string& header) {
    std::vector<std::string> out;
    for (const LibraryWork* k : work_of_header(header)) out.push_back(k->name);
    return out;
  };
  CHECK(names("cub/warp/specializations/warp_scan_shfl.cuh") == std::vector<std::string>{"scan"});
  CHECK(names("thrust/reduce.h") == std::vector<std::string>{"reduction", "reduce-by-key"});
  CHECK(names("thrust/binary_search.h") == std::vector<std::string>{"search"});
  CHECK(names("thrust/system/detail/sequential/stable_radix_sort.inl") ==
        std::vector<std::string>{"sort"});
  CHECK(names("cooperative_groups/details/coalesced_reduce.h") ==
        std::vector<std::string>{"reduction"});
  CHECK(names("thrust/execution_policy.h").empty());
  CHECK(names("cub/cub.cuh").empty());  // an umbrella is judged by what it brings in
  CHECK(names("").empty());
}

TEST_CASE("include tree: -H's lines with their depth, and nothing else") {
  const std::vector<IncludedHeader> tree = parse_include_tree(
      ". /usr/include/stdio.h\n"
      ".. /usr/include/x86_64-linux-gnu/bits/types.h\r\n"
      "nvcc warning : something\n"
      "scan.cu(3): error: . not a header\n"
      "...nospace\n"
      ".... \n"
      "Multiple include guards may be useful for:\n"
      "/usr/include/limits.h\n"
      ". /usr/include/stdio.h\n");
  REQUIRE(tree.size() == 3);
  CHECK(tree[0].depth == 1);
  CHECK(tree[0].path == "/usr/include/stdio.h");
  CHECK(tree[1].depth == 2);
  CHECK(tree[1].path == "/usr/include/x86_64-linux-gnu/bits/types.h");
  CHECK(tree[2].depth == 1);  // the next preprocessing pass starts again at the top
}

TEST_CASE("line markers: every spelling g++ obeys is found, ordinary code has none") {
  CHECK(line_marker_lines("#include <x>\n# 1 \"thrust/sort.h\" 1\nint a;\n") ==
        std::vector<int>{2});
  CHECK(line_marker_lines("#1 \"a\"\n").size() == 1);
  CHECK(line_marker_lines("  %: 7 \"a\" 1\n").size() == 1);             // a digraph
  CHECK(line_marker_lines("?\?= 7 \"a\" 1\n").size() == 1);             // a trigraph
  CHECK(line_marker_lines("/* x */ # /* y */ 7 \"a\"\n").size() == 1);  // comments are blanks
  CHECK(line_marker_lines("/* a comment\n   over lines */ # 7 \"a\" 1\n") == std::vector<int>{2});
  CHECK(line_marker_lines("#\\\n 7 \"a\" 1\n") == std::vector<int>{1});  // a continued line
  CHECK(line_marker_lines("int a;\\  \n# 7 \"a\"\n").empty());      // joined to the line before
  CHECK(line_marker_lines("\xEF\xBB\xBF# 7 \"a\"\n").size() == 1);  // after a byte-order mark
  CHECK(line_marker_lines("int a;\r# 7 \"a\"\r\n").size() == 1);    // a lone carriage return
  CHECK(line_marker_lines(std::string("\0# 7 \"a\"\n", 9)).size() == 1);  // NUL is a blank
  // What the compiler does not take for one.
  CHECK(line_marker_lines("#line 7 \"a\"\n#include <x>\n#define N 1\nint b = N # 1;\n").empty());
  CHECK(line_marker_lines("// # 1 \"a\" 1\nint c; # 1\n").empty());
  // None in any of gpulab's own student files.
  for (const auto& dir : {"labs", "reference"})
    for (const auto& e : fs::recursive_directory_iterator(test::source_dir() / dir))
      if (e.path().extension() == ".cu") {
        INFO(e.path());
        CHECK(line_marker_lines(test::read_file(e.path())).empty());
      }
}

TEST_CASE("library rule: a forbidden header included directly, named with its line") {
  const std::string source = "#include <cuda_runtime.h>\n\n  #  include <thrust/binary_search.h>\n";
  const std::vector<IncludedHeader> tree =
      parse_include_tree(h_output({{1, "/usr/local/cuda/include/cuda_runtime.h"},
                                   {1, "thrust/binary_search.h"},
                                   {2, "thrust/detail/config.h"},
                                   {2, "thrust/system/cuda/detail/binary_search.h"}}));
  const std::vector<HeaderFinding> f = forbidden_headers(tree, kHistogram, source);
  REQUIRE(f.size() == 1);
  check_finding(f[0], "thrust/binary_search.h", 3, "thrust/binary_search.h", "search");
  // The same header in a lab that forbids no search.
  CHECK(forbidden_headers(tree, kScan, source).empty());
  // An include the text does not name (a macro's): found all the same, without its line.
  CHECK(forbidden_headers(tree, kHistogram, "#define H <thrust/binary_search.h>\n#include H\n")
            .at(0)
            .line == 0);
}

TEST_CASE("library rule: an umbrella brings in each kind it holds, once") {
  const std::vector<HeaderFinding> f = forbidden_headers(parse_include_tree(kUmbrella + kUmbrella),
                                                         kHistogram, "#include <cub/cub.cuh>\n");
  // The block histogram's own sort (and the scan inside it) is under a forbidden header already.
  REQUIRE(f.size() == 2);
  check_finding(f[0], "cub/cub.cuh", 1, "cub/block/block_histogram.cuh", "histogram");
  check_finding(f[1], "cub/cub.cuh", 1, "cub/device/device_scan.cuh", "scan");
}

TEST_CASE("library rule: what an allowed header brings in is not judged by the header rule") {
  const std::vector<IncludedHeader> tree = parse_include_tree(kPolicyThenSort);
  // Histogram allows a sort: Thrust's sorts, the sequential one that thrust::device brings in
  // included, shield the scan and the reduction they use.
  CHECK(forbidden_headers(tree, kHistogram, kPolicyThenSortSource).empty());
  // Scan allows nothing: thrust/execution_policy.h brings Thrust's scan in, and thrust/sort.h
  // CUB's DeviceReduce, whose header does a reduction by key.
  const std::vector<HeaderFinding> f = forbidden_headers(tree, kScan, kPolicyThenSortSource);
  REQUIRE(f.size() == 2);
  check_finding(f[0], "thrust/execution_policy.h", 2, "thrust/scan.h", "scan");
  check_finding(f[1], "thrust/sort.h", 3, "cub/device/device_reduce.cuh", "reduce-by-key");
  // A forbidden header already read under an allowed one opens nothing when the file includes it
  // again, so the compiler lists it no more: the symbol check below has the say.
}

TEST_CASE("library rule: CCCL's version namespaces are dropped from the names shown") {
  CHECK(without_version_namespaces(
            "cub::CUB_300001_SM_900::DeviceHistogram::HistogramEven<int>(void*)") ==
        "cub::DeviceHistogram::HistogramEven<int>(void*)");
  CHECK(without_version_namespaces("thrust::THRUST_300001_SM_900_NS::system::system_error") ==
        "thrust::system::system_error");
  CHECK(without_version_namespaces("my::CUB_SETTINGS::x") == "my::CUB_SETTINGS::x");
}

TEST_CASE("library rule: a device-wide algorithm's names, in whatever namespace") {
  // CUB's namespace renamed by its own macros (CUB_DISABLE_NAMESPACE_MAGIC, then
  // `#define cub hidden`): neither cub:: nor a version namespace is left.
  const std::vector<std::string> renamed = {
      "f(int const*, int*, int, void*, unsigned long)",
      "cudaError hidden::DeviceScan::ExclusiveSum<int const*, int*, int>(void*, unsigned long&, "
      "int const*, int*, int, CUstream_st*) [clone .isra.0]",
      "void hidden::detail::scan::DeviceScanKernel<hidden::detail::scan::policy_hub<int, int, "
      "int, unsigned int, cuda::std::__4::plus<void> >::Policy1000, int const*, int*, "
      "hidden::ScanTileState<int, true>, cuda::std::__4::plus<void>, hidden::detail::InputValue<"
      "int, int*>, unsigned int, int, false, int>(int const*, int*, hidden::ScanTileState<int, "
      "true>, int, cuda::std::__4::plus<void>, hidden::detail::InputValue<int, int*>, unsigned "
      "int)",
  };
  CHECK(may_name_forbidden(
      "_ZN6hidden10DeviceScan12ExclusiveSumIPKiPiiEE9cudaErrorPvRmT_T0_T1_P11CUstream_st", kScan));
  CHECK_FALSE(may_name_forbidden("_Z8scan_intPKiPii8ScanKind", kScan));
  const std::vector<ForbiddenUse> uses = forbidden_uses(renamed, kScan);
  REQUIRE(uses.size() == 2);
  CHECK(uses[0].kind->name == "scan");
  CHECK(uses[0].entity == "DeviceScan");
  CHECK(test::contains(uses[0].symbol, "hidden::DeviceScan::ExclusiveSum"));
  CHECK(uses[1].entity == "DeviceScanKernel");
  // CUB inside a namespace of the student's (CUB_WRAPPED_NAMESPACE), with its version namespace.
  CHECK(forbidden_uses({"mine::cub::CUB_300001_SM_900::DeviceHistogram::HistogramEven<int>()"},
                       kHistogram)
            .at(0)
            .entity == "DeviceHistogram");
  // Thrust's reduction by key and its searches, inside template arguments.
  CHECK(forbidden_uses({"void thrust::cuda_cub::core::detail::_kernel_agent<thrust::cuda_cub::"
                        "__reduce_by_key::ReduceByKeyAgent<int*> >()"},
                       kScan)
            .at(0)
            .entity == "__reduce_by_key");
  CHECK(forbidden_uses({"cudaError cub::DeviceFor::ForEachN<long, thrust::system::detail::generic::"
                        "detail::binary_search_functor<int*, thrust::system::detail::generic::"
                        "detail::binary_search_less, thrust::system::detail::generic::detail::"
                        "ubf> >(long)"},
                       kHistogram)
            .at(0)
            .kind->name == "search");
  // Whole names only.
  CHECK(forbidden_uses({"cub::DeviceHistogramX::f()", "DeviceScanning()",
                        "void cub::detail::radix_sort::DeviceRadixSortExclusiveSumKernel<int>()"},
                       kHistogram)
            .empty());
}

TEST_CASE("library rule: a forbidden device-wide call reached through an allowed header") {
  // histogram.cu includes thrust/sort.h, which brings CUB's DeviceScan in (above): the header
  // rule lets it through, and the object's names refuse the call.
  CHECK(forbidden_headers(parse_include_tree(kPolicyThenSort), kHistogram, kPolicyThenSortSource)
            .empty());
  const std::vector<std::string> symbols = {
      "cudaError cub::CUB_300001_SM_900::DeviceRadixSort::SortKeys<int, long>(void*, unsigned "
      "long&, cub::CUB_300001_SM_900::DoubleBuffer<int>&, long, int, int, CUstream_st*)",
      "void cub::CUB_300001_SM_900::detail::radix_sort::DeviceRadixSortOnesweepKernel<cub::"
      "CUB_300001_SM_900::detail::radix::policy_hub<int, int, unsigned int>::Policy1000, "
      "(cub::CUB_300001_SM_900::SortOrder)0, int, int, unsigned int, int, int>()",
      "cudaError cub::CUB_300001_SM_900::DeviceScan::ExclusiveSum<int*, int*, int>(void*, "
      "unsigned long&, int*, int*, int, CUstream_st*)",
  };
  const std::vector<ForbiddenUse> uses = forbidden_uses(symbols, kHistogram);
  REQUIRE(uses.size() == 1);
  CHECK(uses[0].entity == "DeviceScan");
  CHECK(uses[0].symbol.rfind("cudaError cub::DeviceScan::ExclusiveSum<", 0) == 0);
  // The sort's own names are the allowed kind's.
  CHECK(forbidden_uses({symbols[0], symbols[1]}, kHistogram).empty());
}

TEST_CASE("library rule: the messages name the file, why, and each finding") {
  const LibraryWork& scan = *library_work_named("scan");
  const std::string headers =
      describe_forbidden_headers("scan.cu",
                                 {{"cub/cub.cuh", 4, "cub/device/device_scan.cuh", &scan},
                                  {"thrust/scan.h", 0, "thrust/scan.h", &scan}},
                                 kScan);
  CHECK(headers ==
        "scan.cu uses library code this lab does not allow (write it yourself):\n"
        "  line 4: <cub/cub.cuh> brings in <cub/device/device_scan.cuh>, a scan (a prefix sum, "
        "by key too)\n"
        "  <thrust/scan.h> (included through a macro?), a scan (a prefix sum, by key too)\n");
  const std::string long_symbol = "hidden::DeviceScan::K<" + std::string(400, 'x') + ">()";
  const std::string uses =
      describe_forbidden_uses("scan.cu", {{&scan, "DeviceScan", long_symbol}}, kScan);
  CHECK(uses.rfind("scan.cu uses library code this lab does not allow (write it yourself):\n", 0) ==
        0);
  CHECK(test::contains(uses,
                       "  DeviceScan, a scan (a prefix sum, by key too), in "
                       "hidden::DeviceScan::K<xxx"));
  CHECK(uses.size() < 320);
  CHECK(describe_forbidden_headers("scan.cu", {}, kScan).empty());
  CHECK(describe_forbidden_uses("scan.cu", {}, kScan).empty());
  CHECK(test::contains(
      describe_line_markers("scan.cu", {3, 9}),
      "scan.cu holds a line marker (a line `# <number> \"<file>\"`), on lines 3, 9"));
  CHECK(describe_line_markers("scan.cu", {}).empty());
}

TEST_CASE("library rule: each lab's setting") {
  const auto load = [](const char* lab) {
    return LabConfig::load(test::source_dir() / "labs" / lab / "lab.json").library;
  };
  const LibraryPolicy histogram = load("histogram");
  CHECK(histogram.allowed == std::vector<std::string>{"sort"});
  for (const char* kind : {"reduction", "histogram", "scan", "search", "run-length",
                           "reduce-by-key", "segmented-reduction"})
    CHECK_MESSAGE(histogram.forbids(*library_work_named(kind)), kind);
  for (const char* lab : {"scan", "segmented-scan"}) {
    const LibraryPolicy p = load(lab);
    CHECK(p.allowed.empty());
    CHECK(p.forbidden == std::vector<std::string>{"scan", "segmented-reduction", "reduce-by-key"});
    CHECK_FALSE(p.why.empty());
  }
  // particle-grid builds its grids and lists with a library sort and scan, as its handout says,
  // and names thrust::reduce_by_key: nothing is forbidden.
  CHECK(load("particle-grid").empty());
}

// The compiler's own list, through the command the build runs (without the sandbox): the
// histogram reference's includes pass, cub/cub.cuh's do not, on each backend built here.
TEST_CASE("library rule: the compiler's list of a file's headers, on each backend") {
  const Paths paths = Paths::current();
  const LabConfig lab = LabConfig::load(test::source_dir() / "labs" / "histogram" / "lab.json");
  const test::TempDir dir;
  for (const Backend backend : {Backend::cuda, Backend::sim}) {
    if (!fs::exists(paths.driver_lib("histogram", backend))) continue;  // not built here
    INFO(backend_name(backend));
    const RunnerRecipe recipe = load_recipe(paths, lab, backend);
    const auto headers_of = [&](const std::string& text) {
      test::write_file(dir / "histogram.cu", text);
      ProcessOptions po;
      po.argv = include_tree_command(recipe, RecipeUse::student, dir / "histogram.cu");
      po.output_limit = size_t{16} << 20;
      const ProcessResult r = run_process(po);
      INFO(r.output.substr(0, 2000));
      CHECK(r.ok());
      return forbidden_headers(parse_include_tree(r.output), lab.library, text);
    };
    CHECK(headers_of(test::read_file(paths.reference_dir("histogram") / "histogram.cu")).empty());
    // Included on the host pass only: the compiler's host pass is listed too.
    const std::vector<HeaderFinding> f =
        headers_of("#ifndef __CUDA_ARCH__\n#include <thrust/binary_search.h>\n#endif\n");
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind->name == "search");
    CHECK(f[0].line == 2);
    // Included for the last device architecture only: each architecture's pass is listed (nvcc
    // -E would preprocess for the first alone).
    std::vector<std::string> archs;
    for (const std::string& flag : recipe.arch_flags)
      if (const size_t at = flag.find("arch=compute_"); at != std::string::npos)
        archs.push_back(
            flag.substr(at + 13, flag.find_first_not_of("0123456789", at + 13) - at - 13));
    if (archs.size() < 2) continue;
    CHECK(kinds_of(headers_of("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == " + archs.back() +
                              "0\n#include <cub/device/device_histogram.cuh>\n#endif\n")) ==
          std::vector<std::string>{"histogram"});
  }
}
