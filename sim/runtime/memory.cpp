// Device memory: cudaMalloc'd allocations with red zones, a byte-per-byte initialisation
// shadow and a poisoned start (not zeros), registered symbols, and the slow path of every
// checked access (the inline fast path in memory.h handles hits in the per-OS-thread cache of
// recent allocations).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <shared_mutex>

#include "internal.h"
#include "poison.h"  // kFreshDeviceBits: what fresh device memory holds

namespace gpulab_sim::detail {

std::uintptr_t arena_base = 0;
std::uintptr_t arena_size = 0;
std::uintptr_t arena_fast_size = 0;
unsigned char* arena_shadow = nullptr;
std::uint64_t* race_tags = nullptr;
std::uint32_t* race_sites = nullptr;
std::uint32_t* race_locks = nullptr;

namespace {

constexpr std::size_t kRedZone = 256;  // also CUDA's allocation alignment

struct Alloc {
  std::uintptr_t lo;
  std::size_t size;
  std::size_t cap;  // size rounded up: the rest up to cap is red zone too
  bool host;        // cudaMallocHost: always "written" (host writes are not seen)
  const char* what;
  const char* file;
  int line;
  // A grader's output (mark_output): the student's array is [lo + view_off, + view_size), the
  // rest its guard zones, which findings never count in its size or offsets.
  std::size_t view_off = 0;
  std::size_t view_size = 0;  // 0: no view, the allocation is the student's own
  std::string view_name;
};
struct Sym {
  std::uintptr_t lo;
  std::size_t size;
  const char* name;
};
struct Freed {
  std::uintptr_t lo;
  std::size_t size;
  const char* file;
  int line;
};

struct Registry {
  std::shared_mutex mu;
  std::map<std::uintptr_t, Alloc> allocs;
  std::map<std::uintptr_t, Sym> syms;
  std::deque<Freed> freed;  // the most recent frees, to name use-after-free
  std::size_t bytes = 0;
  std::uintptr_t bump = 0;                      // arena offset of never-used space
  std::map<std::uintptr_t, std::size_t> holes;  // freed arena ranges, reused once bump is full
};
Registry& reg() {
  static Registry r;
  return r;
}

// Reserves the arena on first use: address space only (pages are committed when touched).
bool ensure_arena() {
  if (arena_size) return true;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  for (std::size_t size = std::size_t{1} << 38; size >= (std::size_t{1} << 28); size /= 2) {
    void* data = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (data == MAP_FAILED) continue;
    void* shadow = mmap(nullptr, size + page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    // The race detector's words: 8 bytes of tag, 4 of site and 4 of lock per 4 bytes of data.
    void* tags = mmap(nullptr, size * 2 + page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void* sites = mmap(nullptr, size + page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void* locks = mmap(nullptr, size + page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (shadow == MAP_FAILED || tags == MAP_FAILED || sites == MAP_FAILED || locks == MAP_FAILED) {
      munmap(data, size);
      if (shadow != MAP_FAILED) munmap(shadow, size + page);
      if (tags != MAP_FAILED) munmap(tags, size * 2 + page);
      if (sites != MAP_FAILED) munmap(sites, size + page);
      if (locks != MAP_FAILED) munmap(locks, size + page);
      continue;
    }
    arena_shadow = static_cast<unsigned char*>(shadow);
    race_tags = static_cast<std::uint64_t*>(tags);
    race_sites = static_cast<std::uint32_t*>(sites);
    race_locks = static_cast<std::uint32_t*>(locks);
    arena_base = reinterpret_cast<std::uintptr_t>(data);
    arena_size = size;
    arena_fast_size = profile_on ? 0 : size;
    return true;
  }
  return false;
}

// Gives the pages wholly inside [lo, hi) of the arena and its shadow back to the system.
void release_pages(std::uintptr_t lo, std::uintptr_t hi) {
  const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t a = (lo + page - 1) / page * page, b = hi / page * page;
  if (b <= a + 16 * page) return;  // small: not worth a system call
  madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
  madvise(arena_shadow + (a - arena_base), b - a, MADV_DONTNEED);
  // Whole pages of the race words too (page-aligned offsets stay page-aligned there).
  madvise(reinterpret_cast<unsigned char*>(race_tags) + (a - arena_base) * 2, (b - a) * 2,
          MADV_DONTNEED);
  madvise(reinterpret_cast<unsigned char*>(race_sites) + (a - arena_base), b - a, MADV_DONTNEED);
  madvise(reinterpret_cast<unsigned char*>(race_locks) + (a - arena_base), b - a, MADV_DONTNEED);
}

const char* access_word(unsigned mode) {
  if (mode & mode_atomic) return "atomic";
  return mode == rd ? "read" : mode == wr ? "write" : "read-modify-write";
}

std::string size_words(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

std::string alloc_words(const Alloc& a) {
  if (a.view_size)
    return "the " + std::to_string(a.view_size) + "-byte output " + a.view_name +
           " (the grader's array, handed to your function)";
  return "a " + std::to_string(a.size) + "-byte " + a.what + " allocation (made at " +
         where(a.file, a.line) + ")";
}

// The student's part of an allocation: the whole, or a grader's output without its guards.
std::uintptr_t view_lo(const Alloc& a) {
  return a.lo + a.view_off;
}
std::uintptr_t view_end(const Alloc& a) {
  return a.view_size ? a.lo + a.view_off + a.view_size : a.lo + a.size;
}

// "offset 8 in a 4096-byte cudaMalloc allocation (made at a.cu:5)", for an address in `a`'s view.
std::string place_words(const Alloc& a, std::uintptr_t addr) {
  return "offset " + std::to_string(addr - view_lo(a)) + " in " + alloc_words(a);
}

// Registry lookups; the caller holds the lock.
const Alloc* containing(Registry& r, std::uintptr_t a) {
  auto it = r.allocs.upper_bound(a);
  if (it == r.allocs.begin()) return nullptr;
  --it;
  return a < it->second.lo + it->second.size ? &it->second : nullptr;
}
const Sym* containing_sym(Registry& r, std::uintptr_t a) {
  auto it = r.syms.upper_bound(a);
  if (it == r.syms.begin()) return nullptr;
  --it;
  return a < it->second.lo + it->second.size ? &it->second : nullptr;
}

// Outside every allocation: is it in a red zone, i.e. just past one or just before one?
std::string near_words(Registry& r, std::uintptr_t a, std::size_t n) {
  // In a grader's output's guard zone: past the end or before the start of the output itself.
  if (const Alloc* g = containing(r, a); g && g->view_size) {
    if (a >= view_end(*g))
      return "are " + size_words(a - view_end(*g)) + " past the end of " + alloc_words(*g);
    if (a + n <= view_lo(*g))
      return "are " + size_words(view_lo(*g) - a) + " before the start of " + alloc_words(*g);
    return "start inside " + alloc_words(*g) + " but run " + size_words(a + n - view_end(*g)) +
           " past its end";
  }
  auto it = r.allocs.upper_bound(a);
  if (it != r.allocs.begin()) {
    const Alloc& p = std::prev(it)->second;
    const std::uintptr_t end = p.lo + p.size;
    if (a + n > p.lo && a < end)
      return "start inside " + alloc_words(p) + " but run " + size_words(a + n - end) +
             " past its end";
    if (a >= end && a < p.lo + p.cap + kRedZone)
      return "are " + size_words(a - end) + " past the end of " + alloc_words(p);
  }
  if (it != r.allocs.end() && a + kRedZone >= it->second.lo)
    return "are " + size_words(it->second.lo - a) + " before the start of " +
           alloc_words(it->second);
  return {};
}

// Fresh device memory holds gpulab::kFreshDeviceBits (harness/poison.h says why that word) over
// and over, not the zeros that fresh pages hold: CUDA does not say what a new allocation holds,
// so code that reads scratch it never wrote must not get right answers by luck here.
// lo is 256-byte aligned (kRedZone), so the fill is whole 8-byte words but for the tail.
void poison(std::uintptr_t lo, std::size_t n) {
  const std::uint64_t word =
      std::uint64_t{gpulab::kFreshDeviceBits} << 32 | gpulab::kFreshDeviceBits;
  std::fill_n(reinterpret_cast<std::uint64_t*>(lo), n / 8, word);
  std::memcpy(reinterpret_cast<unsigned char*>(lo) + n / 8 * 8, &word, n % 8);
}

bool any_unallocated(const unsigned char* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (s[i] == shadow_none) return true;
  return false;
}
bool any_uninit(const unsigned char* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (s[i] != shadow_init) return true;
  return false;
}

// Bytes the shadow calls unwritten whose 32-bit word no longer holds a poison were written by
// something no check sees: Thrust and CUB, which run as plain host code here, or host code
// writing through a pointer. Those bytes are marked written; true when some bytes of [a, a + n)
// are still unwritten. (A word written whole with the poison itself, or a word partly written by
// byte stores, is taken for what its content says.)
bool still_unwritten(std::uintptr_t a, unsigned char* s, std::size_t n) {
  bool left = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (s[i] == shadow_init) continue;
    std::uint32_t word;
    std::memcpy(&word, reinterpret_cast<const void*>((a + i) & ~std::uintptr_t{3}), 4);
    if (word != gpulab::kFreshDeviceBits && word != gpulab::kPoisonBits)
      s[i] = shadow_init;
    else
      left = true;
  }
  return left;
}

[[noreturn]] void bad_address(Thread* t, std::uintptr_t a, std::size_t size, unsigned mode,
                              const char* file, int line, const char* func,
                              const std::string& what) {
  Registry& r = reg();
  std::shared_lock<std::shared_mutex> lock(r.mu);
  for (const Freed& f : r.freed)
    if (a + size > f.lo && a < f.lo + f.size) {
      const std::string made = where(f.file, f.line);
      lock.unlock();
      fail(finding_kind::invalid_address, t, file, line, func,
           std::string("use after cudaFree: ") + access_word(mode),
           what + " are inside an allocation (made at " + made + ") that was freed.");
    }
  const std::string near = near_words(r, a, size);
  lock.unlock();
  if (!near.empty())
    fail(finding_kind::out_of_bounds, t, file, line, func,
         std::string("out-of-bounds ") + access_word(mode),
         what + " " + near + ". Is a bounds check missing?");
  fail(finding_kind::invalid_address, t, file, line, func,
       std::string("invalid ") + access_word(mode),
       what + (a < 65536 ? ": a null pointer (or one near it)."
                         : ": the address is in no device allocation. Is a host pointer passed "
                           "to the kernel instead of a cudaMalloc'd one?"));
}

}  // namespace

std::string device_location(std::uintptr_t a) {
  Registry& r = reg();
  std::shared_lock<std::shared_mutex> lock(r.mu);
  const Alloc* al = containing(r, a);
  return al ? place_words(*al, a) : hex(a) + " in a device allocation";
}

void mark_output(const void* whole, std::size_t before, std::size_t bytes, const char* name) {
  Registry& r = reg();
  std::unique_lock<std::shared_mutex> lock(r.mu);
  auto it = r.allocs.find(reinterpret_cast<std::uintptr_t>(whole));
  if (it == r.allocs.end() || it->second.host || !bytes || before + bytes > it->second.size) return;
  Alloc& a = it->second;
  a.view_off = before;
  a.view_size = bytes;
  a.view_name = name;
  unsigned char* s = arena_shadow + (a.lo - arena_base);
  std::memset(s, shadow_none, before);
  std::memset(s + before, shadow_uninit, bytes);
  std::memset(s + before + bytes, shadow_none, a.size - before - bytes);
}

bool read_device(void* dst, const void* src, std::size_t n) {
  unsigned char* shadow = nullptr;
  if (!device_range(src, n, &shadow)) return false;
  std::memcpy(dst, src, n);
  return true;
}

void race_forget_all() {
  if (!arena_size) return;
  madvise(race_tags, arena_size * 2, MADV_DONTNEED);
}

void cache_reset() {
  cache = Cache{0, 0};
}

void profile_switch(bool on) {
  profile_on = on;
  arena_fast_size = on ? 0 : arena_size;
}

void register_symbol(const void* addr, std::size_t size, const char* name) {
  Registry& r = reg();
  std::unique_lock<std::shared_mutex> lock(r.mu);
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  r.syms[a] = Sym{a, size, name};
}

bool device_range(const void* p, std::size_t n, unsigned char** shadow) {
  Registry& r = reg();
  std::shared_lock<std::shared_mutex> lock(r.mu);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (const Alloc* al = containing(r, a); al && a + n <= al->lo + al->size) {
    *shadow = al->host ? nullptr : arena_shadow + (a - arena_base);
    return true;
  }
  if (const Sym* s = containing_sym(r, a); s && a + n <= s->lo + s->size) {
    *shadow = nullptr;
    return true;
  }
  return false;
}

bool device_pointer(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - arena_base < arena_size) return true;
  Registry& r = reg();
  std::shared_lock<std::shared_mutex> lock(r.mu);
  return containing_sym(r, a) != nullptr;
}

std::string range_problem(const void* p, std::size_t n) {
  Registry& r = reg();
  std::shared_lock<std::shared_mutex> lock(r.mu);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (const Alloc* al = containing(r, a))
    return "start at offset " + std::to_string(a - al->lo) + " in " + alloc_words(*al) +
           " but run " + size_words(a + n - (al->lo + al->size)) + " past its end";
  if (const Sym* s = containing_sym(r, a))
    return "start at offset " + std::to_string(a - s->lo) + " in the " + size_words(s->size) +
           " of the symbol " + s->name + " but run " + size_words(a + n - (s->lo + s->size)) +
           " past its end";
  for (const Freed& f : r.freed)
    if (a >= f.lo && a < f.lo + f.size)
      return "are inside an allocation (made at " + where(f.file, f.line) + ") that was freed";
  if (std::string near = near_words(r, a, n); !near.empty()) return near;
  return a < 65536 ? "are at a null pointer (or near one)" : "are in no device allocation";
}

std::size_t allocated_bytes() {
  Registry& r = reg();
  std::shared_lock<std::shared_mutex> lock(r.mu);
  return r.bytes;
}

cudaError_t add_alloc(void** p, std::size_t size, bool host, bool initialised, const char* what,
                      const char* file, int line) {
  if (!p) return cudaErrorInvalidValue;
  if (size == 0) {
    *p = nullptr;
    return cudaSuccess;
  }
  Registry& r = reg();
  std::unique_lock<std::shared_mutex> lock(r.mu);
  if (!ensure_arena()) return cudaErrorMemoryAllocation;
  // The arena is address space only: refuse what the machine's memory could not hold.
  static const std::size_t physical = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) *
                                      static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  if (size > physical || r.bytes > physical - size) return cudaErrorMemoryAllocation;
  const std::size_t cap = (size + kRedZone - 1) / kRedZone * kRedZone;
  const std::size_t need = cap + 2 * kRedZone;
  std::uintptr_t start;
  if (need <= arena_size && r.bump <= arena_size - need) {
    start = r.bump;  // fresh space first: freed ranges stay poisoned as long as possible
    r.bump += need;
  } else {
    auto it = std::find_if(r.holes.begin(), r.holes.end(),
                           [&](const auto& h) { return h.second >= need; });
    if (it == r.holes.end()) return cudaErrorMemoryAllocation;
    start = it->first;
    const std::size_t left = it->second - need;
    r.holes.erase(it);
    if (left) r.holes[start + need] = left;
  }
  const Alloc a{arena_base + start + kRedZone, size, cap, host, what, file, line, 0, 0, {}};
  std::memset(arena_shadow + (a.lo - arena_base), initialised ? shadow_init : shadow_uninit, size);
  r.allocs[a.lo] = a;
  r.bytes += size;
  lock.unlock();                  // nobody else has the address yet: the fill needs no lock
  if (!host) poison(a.lo, size);  // cudaMallocHost memory is the host's: left as it comes
  *p = reinterpret_cast<void*>(a.lo);
  return cudaSuccess;
}

cudaError_t remove_alloc(void* p, bool host) {
  if (!p) return cudaSuccess;
  Registry& r = reg();
  std::unique_lock<std::shared_mutex> lock(r.mu);
  auto it = r.allocs.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == r.allocs.end() || it->second.host != host)
    return host ? cudaErrorInvalidValue : cudaErrorInvalidDevicePointer;
  const Alloc a = it->second;
  r.allocs.erase(it);
  r.bytes -= a.size;
  std::memset(arena_shadow + (a.lo - arena_base), shadow_none, a.size);
  release_pages(a.lo - kRedZone, a.lo + a.cap + kRedZone);
  r.holes[a.lo - kRedZone - arena_base] = a.cap + 2 * kRedZone;
  r.freed.push_back(Freed{a.lo, a.cap, a.file, a.line});
  if (r.freed.size() > 256) r.freed.pop_front();
  return cudaSuccess;
}

void free_all_allocations() {
  Registry& r = reg();
  std::unique_lock<std::shared_mutex> lock(r.mu);
  for (auto& [lo, a] : r.allocs) {
    std::memset(arena_shadow + (a.lo - arena_base), shadow_none, a.size);
    release_pages(a.lo - kRedZone, a.lo + a.cap + kRedZone);
  }
  r.allocs.clear();
  r.freed.clear();
  r.holes.clear();
  r.bump = 0;
  r.bytes = 0;
}

void* access_slow(const void* p, std::size_t size, std::size_t align, unsigned mode,
                  const char* file, int line, const char* func) {
  Thread* t = cur_thread;
  if (!t) return const_cast<void*>(p);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto what = [&] { return size_words(size) + " at " + hex(a); };
  const Worker* w = t->worker;  // null in an unchecked barrier-free block: no fiber (launch.h)
  if (w && a >= w->stack_lo && a + size <= w->stack_hi) {  // the thread's own local variables
    if (!profile_on) cache = Cache{w->stack_lo, w->stack_hi - w->stack_lo};
    return const_cast<void*>(p);
  }
  if (profile_on) profile_note(*t, a, size, mode, file, line);  // not the thread's own variables
  if (align > 1 && a % align != 0)
    fail(finding_kind::misaligned, t, file, line, func,
         std::string("misaligned ") + access_word(mode),
         what() + ": the address is not a multiple of " + std::to_string(align) +
             ". Is a pointer cast to a wider type (e.g. float4*) at an offset that is not?");
  if (a - arena_base < arena_size) {
    unsigned char* s = arena_shadow + (a - arena_base);
    if (any_unallocated(s, size)) bad_address(t, a, size, mode, file, line, func, what());
    // (An unchecked kernel's plain writes leave the shadow as it was: its atomics judge nothing.)
    const bool judged = !(mode & mode_atomic) || !t->block || !t->block->launch->unchecked;
    if ((mode & rd) && judged && any_uninit(s, size) && still_unwritten(a, s, size) &&
        !counted_quietly(finding_kind::uninitialised_read, t, file, line)) {
      Registry& r = reg();
      std::shared_lock<std::shared_mutex> lock(r.mu);
      const Alloc* al = containing(r, a);
      const std::string in = al ? place_words(*al, a) : std::string("a device allocation");
      const bool output = al && al->view_size;
      lock.unlock();
      report(finding_kind::uninitialised_read, t, file, line, func,
             output ? "read of an output before it was written"
                    : "read of uninitialised device memory",
             std::string(mode & mode_atomic ? "an atomic on " : "a read of ") + what() +
                 " that nothing wrote before: " + in +
                 (output ? ", which arrives filled with a poison value, not zeros."
                         : ". A GPU gives such memory no value (this backend fills it with a NaN "
                           "pattern)."));
    }
    if (mode & wr) {
      std::memset(s, shadow_init, size);
      if (size % 4 == 0 && a % 4 == 0)
        for (std::size_t k = 0; k < size; k += 4)
          race_write<4>(a - arena_base + k, race_tag | (mode & mode_atomic ? kRaceAtomic : 0),
                        mode == wr, file, line, func);
    }
    return const_cast<void*>(p);
  }
  if (shared_contains(a)) {
    shared_access(*t->block, t, a, size, mode, file, line, func);
    return const_cast<void*>(p);
  }
  {
    Registry& r = reg();
    std::shared_lock<std::shared_mutex> lock(r.mu);
    if (const Sym* s = containing_sym(r, a); s && a + size <= s->lo + s->size) {
      if (!profile_on) cache = Cache{s->lo, s->size};  // a cached range is not noted
      return const_cast<void*>(p);
    }
  }
  bad_address(t, a, size, mode, file, line, func, what());
}

void atomic_check_slow(const void* p, std::size_t size, const char* file, int line,
                       const char* func) {
  access_slow(p, size, size, rw | mode_atomic, file, line, func);
}

}  // namespace gpulab_sim::detail

cudaError_t cudaMalloc(void** p, size_t size, const char* file, int line) {
  if (cudaError_t e = gpulab_sim::detail::sticky_error()) return e;
  cudaError_t e = gpulab_sim::detail::add_alloc(p, size, false, false, "cudaMalloc", file, line);
  if (e) gpulab_sim::detail::set_last_error(e);
  return e;
}
cudaError_t cudaFree(void* p) {
  if (cudaError_t e = gpulab_sim::detail::sticky_error()) return e;
  cudaError_t e = gpulab_sim::detail::remove_alloc(p, false);
  if (e) gpulab_sim::detail::set_last_error(e);
  return e;
}
cudaError_t cudaMallocHost(void** p, size_t size) {
  return gpulab_sim::detail::add_alloc(p, size, true, true, "cudaMallocHost", "(host)", 0);
}
cudaError_t cudaHostAlloc(void** p, size_t size, unsigned int) {
  return cudaMallocHost(p, size);
}
cudaError_t cudaFreeHost(void* p) {
  return gpulab_sim::detail::remove_alloc(p, true);
}
// Managed memory is device memory the host also touches: checked in kernels like cudaMalloc'd
// memory (bounds, races), freed by cudaFree, but "written" from the start, since the host's own
// writes to it are not seen by any check.
cudaError_t cudaMallocManaged(void** p, size_t size, unsigned int flags, const char* file,
                              int line) {
  if (cudaError_t e = gpulab_sim::detail::sticky_error()) return e;
  cudaError_t e =
      flags == cudaMemAttachGlobal || flags == cudaMemAttachHost
          ? gpulab_sim::detail::add_alloc(p, size, false, true, "cudaMallocManaged", file, line)
          : cudaErrorInvalidValue;
  if (e) gpulab_sim::detail::set_last_error(e);
  return e;
}
