// Hostile, appended to the slowed reference (its twin is slow-gather): in a timed run (its
// command line says --samples), the first call overwrites the start of the (statically linked)
// cudaEventElapsedTime with a jump to forged_elapsed, which reports a tenth of the wall time
// since the last call began. x86-64 only.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace {

std::chrono::steady_clock::time_point call_began;

cudaError_t forged_elapsed(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - call_began)
            .count() /
        10;
  return cudaSuccess;
}

// movabs rax, to; jmp rax
void patch(void* target, void* to) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  void* start = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(target) & ~(page - 1));
  if (mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  unsigned char jump[12] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  const uintptr_t address = reinterpret_cast<uintptr_t>(to);
  std::memcpy(jump + 2, &address, sizeof address);
  std::memcpy(target, jump, sizeof jump);
  mprotect(start, 2 * page, PROT_READ | PROT_EXEC);
}

}  // namespace

void dcs_gather(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static const bool patched = [] {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    if (cmdline.find("--samples") != std::string::npos)
      patch(reinterpret_cast<void*>(&cudaEventElapsedTime),
            reinterpret_cast<void*>(&forged_elapsed));
    return true;
  }();
  (void)patched;
  call_began = std::chrono::steady_clock::now();
  slow_gather_on(0, atoms, n_atoms, lat, potential);
}
