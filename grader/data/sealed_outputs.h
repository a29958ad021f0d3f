// The outputs a run handed the grader over its channel (harness/channel_protocol.h): each a
// memory file that the harness sealed against every change (F_SEAL_WRITE, _GROW, _SHRINK) before
// sending it, so that what the grader checks is what the run had when the output was captured,
// whatever its code did afterwards. Nothing is read from a name in the run's folder. A file that
// is not sealed so, not a regular file, or larger than the run may write is refused.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "npy.h"
#include "unique_fd.h"

namespace gpulab {

class SealedOutputs {
 public:
  // Takes `fd` as output `name`: "" when kept, else why it is refused, for the student (the
  // descriptor is then closed).
  std::string add(const std::string& name, UniqueFd fd, size_t max_bytes);

  bool has(const std::string& name) const { return files_.count(name) > 0; }
  std::vector<std::string> names() const;

  // Output `name` as an array of `dtype`, mapped (it cannot change or shrink); an NpyError
  // naming it when it is missing or not such an array.
  NpyArray read_npy(const std::string& name, DType dtype) const;

  // The outputs named `prefix` + a name of `names`, under that name alone: one dataset's of a
  // run that handed over several (grade/correctness_batch.h). The same sealed files, each
  // descriptor duplicated.
  std::shared_ptr<SealedOutputs> renamed(const std::string& prefix,
                                         const std::vector<std::string>& names) const;

 private:
  std::map<std::string, UniqueFd> files_;
};

}  // namespace gpulab
