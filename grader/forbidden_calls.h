// lab.json's "forbidden_calls": library entities a submission may not use because they would do
// the lab's work for it (a histogram lab's student calling cub::DeviceHistogram, a scan lab's
// calling cub::DeviceScan or thrust::inclusive_scan). A device-wide algorithm of CUB or Thrust
// leaves its host functions and its kernels' launch stubs in the object that calls it, whatever
// name the call is spelt with (an alias, a macro, a using-declaration), so the build reads the
// student's objects' symbols (nm, demangled) and refuses one that names a forbidden entity.
// Block- and warp-level collectives (cub::BlockReduce, cub::WarpScan) are inlined into the
// student's kernel and leave no symbol: they are not caught here, and the handouts say so.
// This module is pure: demangled names in, findings out. grader/build.cpp runs nm and c++filt.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpulab {

class LabJsonReader;

struct ForbiddenCalls {
  // Qualified names: namespaces, classes or functions (cub::DeviceHistogram, cub::detail::scan).
  std::vector<std::string> names;
  std::string why;  // for the student: what the lab asks them to write instead
};

// Parses lab.json's "forbidden_calls".
ForbiddenCalls parse_forbidden_calls(const nlohmann::json& calls, const LabJsonReader& r);

// A demangled name without CCCL's versioned inline namespaces (cub::CUB_300001_SM_900::,
// thrust::THRUST_300001_SM_900_NS::), as people write the names; the namespace around a
// versioned one is called cub:: or thrust:: whatever a macro renamed it to.
std::string without_version_namespaces(const std::string& demangled);

// Whether a mangled name may name CUB or Thrust (and so is worth demangling).
bool may_name_cccl(const std::string& mangled);

struct ForbiddenUse {
  std::string name;    // the forbidden name
  std::string symbol;  // the demangled symbol that names it, without version namespaces
};

// Each forbidden name that one of `demangled` names (the entity itself or anything inside it,
// on a boundary of names: cub::DeviceHistogram matches cub::DeviceHistogram::HistogramEven<int>
// but not cub::DeviceHistogramX), once, with the first such symbol.
std::vector<ForbiddenUse> forbidden_uses(const std::vector<std::string>& demangled,
                                         const ForbiddenCalls& calls);

// The build's message for one object's uses, "" for none: "histogram.cu uses library code this
// lab does not allow (<why>):" and a line per use, "  cub::DeviceHistogram, in <symbol>".
std::string describe_forbidden_uses(const std::string& file, const std::vector<ForbiddenUse>& uses,
                                    const ForbiddenCalls& calls);

}  // namespace gpulab
