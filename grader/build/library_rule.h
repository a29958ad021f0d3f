// The build's two checks of lab.json's "library" (library_policy.h), judged by what is compiled
// in, not by the names the source spells:
//  - the headers: the compiler's own list of what a student's file includes (include_tree.h).
//    A header of a forbidden kind refuses the build when the file includes it directly, or
//    through headers none of which is of an allowed kind (an umbrella such as cub/cub.cuh or
//    thrust/device_vector.h that pulls it in counts). Macros cannot rename a header's path, so
//    CUB and Thrust are seen however the source spells them. A forbidden header reached only
//    through an allowed one (thrust/sort.h brings CUB's radix sort, which uses
//    cub/block/block_scan.cuh) is left to the second check.
//  - the symbols: the demangled names in the student's object. A forbidden kind's device-wide
//    entry points leave their host functions and kernels there, whatever namespace a macro put
//    them in (CUB_NAMESPACE_BEGIN redefined, CUB_WRAPPED_NAMESPACE), so their names are matched
//    as whole names in any namespace.
// Block- and warp-level collectives reached only through an allowed header are inlined and leave
// no name: neither check sees them (docs/GRADING.md, "Library code a lab forbids").
// This module is pure: the compiler's words and the names in, findings and messages out;
// grader/build/build.cpp runs the compiler, nm and c++filt.
#pragma once

#include <string>
#include <vector>

#include "build/include_tree.h"
#include "lab/library_policy.h"
#include "lab/library_work.h"

namespace gpulab {

// A forbidden kind that one of the student's #includes brings in.
struct HeaderFinding {
  std::string included;  // what the student's file includes (library_header's path, or as opened)
  int line = 0;          // that #include's line in the file; 0 where its text names it nowhere
  std::string header;    // the forbidden header, library_header's path; `included` where direct
  const LibraryWork* kind = nullptr;
};

// What `tree` (the student's file's, whose text is `source`) brings in of the policy's
// forbidden kinds: for each of the file's own includes, each forbidden kind once, with the first
// header of that kind that it reaches without passing an allowed one.
std::vector<HeaderFinding> forbidden_headers(const std::vector<IncludedHeader>& tree,
                                             const LibraryPolicy& policy,
                                             const std::string& source);

// A demangled name without CCCL's versioned inline namespaces (cub::CUB_300001_SM_900::,
// thrust::THRUST_300001_SM_900_NS::), as people write them.
std::string without_version_namespaces(const std::string& demangled);

// Whether a mangled name may name an entity of a forbidden kind (and so is worth demangling).
bool may_name_forbidden(const std::string& mangled, const LibraryPolicy& policy);

struct ForbiddenUse {
  const LibraryWork* kind = nullptr;
  std::string entity;  // the kind's name found: "DeviceScan"
  std::string symbol;  // the demangled symbol that holds it, without version namespaces
};

// Each entity of a forbidden kind that `demangled` names as a whole name (DeviceHistogram in
// cub::DeviceHistogram::HistogramEven<int> or hidden::DeviceHistogram::..., not in
// DeviceHistogramX), once, with the first such symbol. An entity that an allowed kind lists
// too is left out.
std::vector<ForbiddenUse> forbidden_uses(const std::vector<std::string>& demangled,
                                         const LibraryPolicy& policy);

// The build's messages, "" for nothing found; each starts "<file> uses library code this lab
// does not allow (<why>):" and gives a line per finding.
std::string describe_forbidden_headers(const std::string& file,
                                       const std::vector<HeaderFinding>& findings,
                                       const LibraryPolicy& policy);
std::string describe_forbidden_uses(const std::string& file, const std::vector<ForbiddenUse>& uses,
                                    const LibraryPolicy& policy);

// The build's message for a file that holds line markers (line_markers.h), "" for none.
std::string describe_line_markers(const std::string& file, const std::vector<int>& lines);

}  // namespace gpulab
