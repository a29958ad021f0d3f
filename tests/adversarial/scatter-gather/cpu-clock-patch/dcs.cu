// Hostile, appended to the slowed reference (its twin is slow-cpu): the first call overwrites
// the start of the vDSO's clock_gettime, which the C library's clock_gettime calls, with a jump
// to slowed_clock, which reads the real clock by a system call and reports it running at a
// tenth of its speed from that moment on. Every clock the harness reads inside the process
// (wall, process and thread CPU time) then says a call took a tenth of what it did, and the
// C library's own code, which gpulab's harness checks, is left as it was. x86-64 only.
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace {

long double anchors[16];
bool anchored[16];

int slowed_clock(clockid_t id, timespec* ts) {
  const long r = syscall(SYS_clock_gettime, id, ts);
  if (r != 0 || id < 0 || id >= 16) return static_cast<int>(r);
  const long double now = ts->tv_sec + ts->tv_nsec * 1e-9L;
  if (!anchored[id]) {
    anchored[id] = true;
    anchors[id] = now;
  }
  const long double slow = anchors[id] + (now - anchors[id]) / 10;
  ts->tv_sec = static_cast<time_t>(slow);
  ts->tv_nsec = static_cast<long>((slow - ts->tv_sec) * 1e9L);
  return 0;
}

// The vDSO's clock_gettime, from its dynamic symbol table.
void* vdso_clock_gettime() {
  const auto base = static_cast<uintptr_t>(getauxval(AT_SYSINFO_EHDR));
  if (!base) return nullptr;
  const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  const auto* ph = reinterpret_cast<const Elf64_Phdr*>(base + eh->e_phoff);
  uintptr_t bias = base, dynamic = 0;
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) bias = base - ph[i].p_vaddr;
    if (ph[i].p_type == PT_DYNAMIC) dynamic = ph[i].p_vaddr;
  }
  const Elf64_Sym* symbols = nullptr;
  const char* names = nullptr;
  const uint32_t* hash = nullptr;
  for (auto* d = reinterpret_cast<const Elf64_Dyn*>(bias + dynamic); d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_SYMTAB) symbols = reinterpret_cast<const Elf64_Sym*>(bias + d->d_un.d_ptr);
    if (d->d_tag == DT_STRTAB) names = reinterpret_cast<const char*>(bias + d->d_un.d_ptr);
    if (d->d_tag == DT_HASH) hash = reinterpret_cast<const uint32_t*>(bias + d->d_un.d_ptr);
  }
  if (!symbols || !names || !hash) return nullptr;
  for (uint32_t i = 0; i < hash[1]; ++i)
    if (std::strcmp(names + symbols[i].st_name, "__vdso_clock_gettime") == 0)
      return reinterpret_cast<void*>(bias + symbols[i].st_value);
  return nullptr;
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

void dcs_cpu_fast(const float* atoms, int n_atoms, Lattice lat, float* potential) {
  static const bool patched = [] {
    if (void* vdso = vdso_clock_gettime()) patch(vdso, reinterpret_cast<void*>(&slowed_clock));
    return true;
  }();
  (void)patched;
  slow_cpu_fast(atoms, n_atoms, lat, potential);
}
