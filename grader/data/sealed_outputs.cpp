#include "data/sealed_outputs.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <stdexcept>

namespace gpulab {

std::string SealedOutputs::add(const std::string& name, UniqueFd fd, size_t max_bytes) {
  constexpr int kSealed = F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK;
  struct stat st {};
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    return "output \"" + name + "\" came as something other than a memory file";
  const int seals = fcntl(fd.get(), F_GET_SEALS);
  if (seals < 0 || (seals & kSealed) != kSealed)
    return "output \"" + name + "\" came unsealed (it could still change)";
  if (static_cast<size_t>(st.st_size) > max_bytes)
    return "output \"" + name + "\" is larger (" + std::to_string(st.st_size) +
           " bytes) than a run may write";
  if (files_.count(name)) return "output \"" + name + "\" came twice";
  files_.emplace(name, std::move(fd));
  return "";
}

std::vector<std::string> SealedOutputs::names() const {
  std::vector<std::string> out;
  for (const auto& [name, fd] : files_) out.push_back(name);
  return out;
}

std::shared_ptr<SealedOutputs> SealedOutputs::renamed(const std::string& prefix,
                                                      const std::vector<std::string>& names) const {
  auto out = std::make_shared<SealedOutputs>();
  for (const std::string& name : names) {
    const auto it = files_.find(prefix + name);
    if (it == files_.end()) continue;
    UniqueFd copy(fcntl(it->second.get(), F_DUPFD_CLOEXEC, 0));
    if (!copy.valid()) throw std::runtime_error("cannot keep the output " + prefix + name);
    out->files_.emplace(name, std::move(copy));
  }
  return out;
}

NpyArray SealedOutputs::read_npy(const std::string& name, DType dtype) const {
  const auto it = files_.find(name);
  if (it == files_.end()) throw NpyError(name + ".npy: your run did not hand over this output");
  return map_npy(it->second.get(), name + ".npy", dtype);
}

}  // namespace gpulab
