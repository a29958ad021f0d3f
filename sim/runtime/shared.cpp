// __shared__ memory: a per-OS-thread arena, fresh for each block. The dynamic shared memory
// comes first, then each static __shared__ object on first use, each followed by a red zone,
// so that overruns land outside every object and are reported with the object's name.
#include <sys/mman.h>

#include <cstring>
#include <new>

#include "internal.h"

namespace gpulab_sim::detail {
namespace {

constexpr std::size_t kRed = 64;
constexpr std::size_t kArena = 512 * 1024;  // > 227 KiB + 48 KiB + red zones

struct Arena {
  std::uint8_t* base;
  Arena() {
    void* m = mmap(nullptr, kArena, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    base = static_cast<std::uint8_t*>(m);
  }
  ~Arena() { munmap(base, kArena); }
};
Arena& arena() {
  static thread_local Arena a;
  return a;
}

std::size_t align_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

}  // namespace

std::uint8_t* shared_arena_base() {
  return arena().base;
}

bool shared_contains(std::uintptr_t a) {
  const auto b = reinterpret_cast<std::uintptr_t>(arena().base);
  return a - b < kArena;
}

void shared_begin_block(Block& b) {
  std::uint8_t* base = arena().base;
  b.shared.clear();
  b.static_shared = 0;
  const std::size_t dyn = b.launch->shmem;
  b.shared.push_back(SharedObj{nullptr, -1, nullptr, reinterpret_cast<std::uintptr_t>(base + kRed),
                               dyn, "extern __shared__ (dynamic shared memory)", nullptr, 0});
  b.arena_used = align_up(kRed + dyn + kRed, 16);
}

void* dynamic_shared_base(const char*, int) {
  Thread* t = cur_thread;
  if (!t) return nullptr;
  return reinterpret_cast<void*>(t->block->shared[0].lo);
}

void* shared_object(const void* tag, int id, const void* key, std::size_t size, std::size_t align,
                    const char* name, const char* file, int line) {
  Thread* t = cur_thread;
  if (!t) return nullptr;
  Block& b = *t->block;
  for (std::size_t i = 1; i < b.shared.size(); ++i) {
    const SharedObj& o = b.shared[i];
    if (o.tag == tag && o.id == id && o.key == key) return reinterpret_cast<void*>(o.lo);
  }
  // First use in this block: place it (uninitialised, as on the GPU).
  b.static_shared += size;
  if (b.static_shared > kStaticSharedLimit)
    fail(finding_kind::shared_limit, t, file, line, nullptr, "too much static shared memory",
         "__shared__ " + std::string(name) + " (" + std::to_string(size) +
             " bytes) brings the "
             "block's static shared memory to " +
             std::to_string(b.static_shared) + " bytes; the limit is " +
             std::to_string(kStaticSharedLimit) + " (use dynamic shared memory for more).");
  if (b.static_shared + b.launch->shmem > kOptinSharedLimit)
    fail(finding_kind::shared_limit, t, file, line, nullptr, "too much shared memory",
         "static plus dynamic shared memory is " +
             std::to_string(b.static_shared + b.launch->shmem) + " bytes; the limit is " +
             std::to_string(kOptinSharedLimit) + ".");
  const std::size_t off = align_up(b.arena_used, align < 16 ? 16 : align);
  b.arena_used = off + size + kRed;
  const auto lo = reinterpret_cast<std::uintptr_t>(arena().base + off);
  b.shared.push_back(SharedObj{tag, id, key, lo, size, name, file, line});
  return reinterpret_cast<void*>(lo);
}

void shared_access(Block& b, Thread* t, std::uintptr_t a, std::size_t size, unsigned mode,
                   const char* file, int line, const char* func) {
  const SharedObj* in = nullptr;
  const SharedObj* before = nullptr;  // the nearest object ending at or below a
  const SharedObj* after = nullptr;   // the nearest object starting above a
  for (const SharedObj& o : b.shared) {
    if (a >= o.lo && a < o.lo + o.size) in = &o;
    if (o.lo + o.size <= a && (!before || o.lo > before->lo)) before = &o;
    if (o.lo > a && (!after || o.lo < after->lo)) after = &o;
  }
  if (in && a + size <= in->lo + in->size) {
    hazard_track(b, t, a - reinterpret_cast<std::uintptr_t>(arena().base), size, mode, file, line,
                 func, *in);
    return;
  }
  auto words = [](const SharedObj& o) {
    std::string s = "__shared__ " + std::string(o.name) + " (" + std::to_string(o.size) + " bytes";
    if (o.file) s += ", declared at " + where(o.file, o.line);
    return s + ")";
  };
  std::string detail = (mode & wr ? "write" : "read") + std::string(" of ") + std::to_string(size) +
                       " bytes at " + hex(a) + ": ";
  if (in)
    detail += "it starts inside " + words(*in) + " but runs past its end";
  else if (before && (!after || a - (before->lo + before->size) <= after->lo - a))
    detail += std::to_string(a - (before->lo + before->size)) + " bytes past the end of " +
              words(*before);
  else if (after)
    detail += std::to_string(after->lo - a) + " bytes before the start of " + words(*after);
  else
    detail += "outside every shared object";
  if (in == &b.shared[0] || before == &b.shared[0])
    detail += ". The launch gave " + std::to_string(b.launch->shmem) +
              " bytes of dynamic shared memory (the third <<<>>> argument)";
  fail(finding_kind::out_of_bounds, t, file, line, func, "out-of-bounds shared-memory access",
       detail + ". Is an index or a size wrong?");
}

}  // namespace gpulab_sim::detail
