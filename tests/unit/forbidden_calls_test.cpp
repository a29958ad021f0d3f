// lab.json's forbidden_calls (grader/forbidden_calls.h): which demangled symbols of a student's
// object name a forbidden library entity. The symbols below are as nm and c++filt print them
// for objects nvcc 13 made of CUB and Thrust calls; the build's own use of them is exercised by
// the adversarial submissions tests/adversarial/{histogram/cub-histogram,scan/thrust-scan}.
#include "forbidden_calls.h"

#include <doctest/doctest.h>

#include "lab_config.h"
#include "test_util.h"

namespace {

using namespace gpulab;

const ForbiddenCalls kCalls{{"cub::DeviceHistogram", "cub::detail::scan"}, "write it yourself"};

}  // namespace

TEST_CASE("forbidden calls: CCCL's version namespaces are dropped before names are compared") {
  CHECK(without_version_namespaces(
            "cub::CUB_300001_SM_900::DeviceHistogram::HistogramEven<int>(void*)") ==
        "cub::DeviceHistogram::HistogramEven<int>(void*)");
  CHECK(without_version_namespaces("thrust::THRUST_300001_SM_900_NS::system::system_error") ==
        "thrust::system::system_error");
  CHECK(without_version_namespaces("my::CUB_SETTINGS::x") == "my::CUB_SETTINGS::x");
  // `#define cub hidden` before CUB's headers renames the namespace, not the versioned one.
  CHECK(without_version_namespaces("hidden::CUB_300001_SM_900::DeviceScan::InclusiveSum<int>()") ==
        "cub::DeviceScan::InclusiveSum<int>()");
  CHECK(may_name_cccl("_ZN6hidden17CUB_300001_SM_90010DeviceScan12InclusiveSumEv"));
  CHECK(may_name_cccl("_ZN3cub17CUB_300001_SM_90015DeviceHistogram13HistogramEvenIiEEvPv"));
  CHECK(may_name_cccl("_ZN6thrust23THRUST_300001_SM_900_NS6system12system_errorD1Ev"));
  CHECK_FALSE(may_name_cccl("_Z17histogram_privatePKiiiPi"));
}

TEST_CASE("forbidden calls: a symbol names an entity at a boundary of names, once each") {
  const std::vector<std::string> symbols = {
      "histogram_private(int const*, int, int, int*)",
      "cub::CUB_300001_SM_900::DeviceHistogramX::f()",     // another name that starts the same
      "cub::CUB_300001_SM_900::DeviceHistogramming::f()",  // another name again
      "guard variable for cub::CUB_300001_SM_900::DeviceHistogram::MultiHistogramEven<1>(void*)",
      "void cub::CUB_300001_SM_900::detail::scan::DeviceScanKernel<int>(int const*, int*)",
      "cub::CUB_300001_SM_900::DeviceHistogram::HistogramEven<int>(void*)",
  };
  const std::vector<ForbiddenUse> uses = forbidden_uses(symbols, kCalls);
  REQUIRE(uses.size() == 2);
  CHECK(uses[0].name == "cub::DeviceHistogram");
  CHECK(uses[0].symbol == "guard variable for cub::DeviceHistogram::MultiHistogramEven<1>(void*)");
  CHECK(uses[1].name == "cub::detail::scan");
  CHECK(forbidden_uses({symbols[0], symbols[1], symbols[2]}, kCalls).empty());
  // CUB_WRAPPED_NAMESPACE puts CUB inside a namespace of the user's: still CUB's.
  CHECK(forbidden_uses({"mine::cub::CUB_300001_SM_900::DeviceHistogram::HistogramEven<int>()"},
                       kCalls)
            .size() == 1);
  // Thrust's reduction by key, used inside a template argument.
  const ForbiddenCalls by_key{{"thrust::cuda_cub::__reduce_by_key"}, "no"};
  CHECK(forbidden_uses({"void f<thrust::THRUST_300001_SM_900_NS::cuda_cub::__reduce_by_key::"
                        "ReduceByKeyAgent<int> >()"},
                       by_key)
            .size() == 1);
}

TEST_CASE("forbidden calls: the message names the file, why, and each use, shortened") {
  const std::string long_symbol = "cub::detail::scan::K<" + std::string(400, 'x') + ">()";
  const std::string m =
      describe_forbidden_uses("scan.cu", {{"cub::detail::scan", long_symbol}}, kCalls);
  CHECK(m.rfind("scan.cu uses library code this lab does not allow (write it yourself):\n", 0) ==
        0);
  CHECK(test::contains(m, "  cub::detail::scan, in cub::detail::scan::K<xxx"));
  CHECK(test::contains(m, "...\n"));
  CHECK(m.size() < 300);
  CHECK(describe_forbidden_uses("scan.cu", {}, kCalls).empty());
}

TEST_CASE("forbidden calls: the labs that forbid a library's version of their work") {
  for (const char* lab : {"histogram", "scan", "segmented-scan"}) {
    const LabConfig c = LabConfig::load(test::source_dir() / "labs" / lab / "lab.json");
    CHECK_MESSAGE(!c.forbidden_calls.names.empty(), lab);
    CHECK_MESSAGE(!c.forbidden_calls.why.empty(), lab);
  }
  // particle-grid builds its lists with a library scan and sort, as its reference does.
  const LabConfig pg = LabConfig::load(test::source_dir() / "labs" / "particle-grid" / "lab.json");
  CHECK(pg.forbidden_calls.names.empty());
}
