#include "sealed_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpulab {

namespace {

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

// The mapping's pages made before the copy reaches them, a slice per thread: the kernel zeroes
// each new page, and a gigabyte output's 262,144 pages cost one thread 606 ms on an H100's host
// and eight 277 ms (docs/PERF.md, "A timed sample's moves, measured"). The threads are the
// harness's, joined here, between the student's calls. A kernel without MADV_POPULATE_WRITE gets
// a fault per page, from a write to it.
void populate(void* at, size_t bytes) {
  constexpr size_t kSlice = size_t{64} << 20;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const auto fill = [page](char* from, size_t n) {
    if (::madvise(from, n, MADV_POPULATE_WRITE) == 0) return;
    for (size_t i = 0; i < n; i += page) static_cast<volatile char*>(from)[i] = 0;
  };
  constexpr size_t kThreads = 8;
  const size_t slices = std::min((bytes + kSlice - 1) / kSlice, kThreads);
  if (slices <= 1) return fill(static_cast<char*>(at), bytes);
  // Slices of whole pages; the last takes the rest.
  const size_t each = (bytes / slices + page - 1) / page * page;
  std::vector<std::thread> threads;
  for (size_t k = 1; k < slices; ++k) {
    const size_t from = std::min(bytes, k * each);
    const size_t n = k + 1 == slices ? bytes - from : std::min(each, bytes - from);
    threads.emplace_back(fill, static_cast<char*>(at) + from, n);
  }
  fill(static_cast<char*>(at), std::min(each, bytes));
  for (auto& t : threads) t.join();
}

}  // namespace

UniqueFd sealed_memory_file(const std::string& name, size_t bytes,
                            const std::function<void(void* data)>& fill) {
  const auto fail = [&](const char* what) {
    return std::runtime_error(std::string("cannot ") + what + " the memory file of " + name + ": " +
                              std::strerror(errno));
  };
  UniqueFd file(::memfd_create(("gpulab-" + name).c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!file.valid() || ::ftruncate(file.get(), static_cast<off_t>(bytes)) != 0) throw fail("make");
  if (bytes > 0) {
    void* at = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, file.get(), 0);
    if (at == MAP_FAILED) throw fail("map");
    try {
      populate(at, bytes);
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
