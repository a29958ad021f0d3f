#include "sealed_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpulab {

UniqueFd sealed_memory_file(const std::string& name, size_t bytes,
                            const std::function<void(void* data)>& fill) {
  const auto fail = [&](const char* what) {
    return std::runtime_error(std::string("cannot ") + what + " the memory file of " + name + ": " +
                              std::strerror(errno));
  };
  UniqueFd file(::memfd_create(("gpulab-" + name).c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!file.valid() || ::ftruncate(file.get(), static_cast<off_t>(bytes)) != 0) throw fail("make");
  if (bytes > 0) {
    // Populated as it is mapped: one pass of the kernel's over a gigabyte output's pages, not a
    // fault for each as the copy reaches it (inside a timed sample's window on the outside clock).
    void* at =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, file.get(), 0);
    if (at == MAP_FAILED) throw fail("map");
    try {
      fill(at);
    } catch (...) {
      ::munmap(at, bytes);
      throw;
    }
    ::munmap(at, bytes);  // F_SEAL_WRITE needs no writable mapping left
  }
  if (::fcntl(file.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) !=
      0)
    throw fail("seal");
  return file;
}

}  // namespace gpulab
