// Shared-memory hazards and uninitialised shared reads. Per byte of the shared arena: who
// wrote it and who read it in the current barrier interval (epoch), and whether anything
// wrote it in this block. Two different threads touching a byte in one interval, one of them
// writing, is a hazard: between warps a race, inside a warp a reliance on lockstep unless a
// warp operation (__syncwarp, shuffles, votes) came in between. Atomics do not race with each
// other, but an atomic and a plain access of another thread in one interval do (a histogram
// zeroed, or read out, without a barrier before or after its atomicAdds).
#include <sys/mman.h>

#include <map>
#include <new>
#include <utility>

#include "internal.h"

namespace gpulab_sim::detail {
namespace {

constexpr std::size_t kArena = 512 * 1024;  // as shared.cpp
constexpr std::uint16_t kNone = 0xffff;

// One thread's access: who, the warp's sync count then, and where.
struct Access {
  std::uint16_t thread = kNone, wsync = 0, site = kNone;
};

// Two threads' accesses of one kind: the first, and the last by another thread. A thread's own
// access never conflicts with it, so one record would hide the others'.
struct Two {
  Access a[2];
  void remember(const Access& x) { a[a[0].thread == kNone || a[0].thread == x.thread ? 0 : 1] = x; }
};

struct Meta {
  std::uint32_t serial = 0;  // the block these records belong to
  std::uint32_t epoch = 0;   // the barrier interval the access records belong to
  Access writer;
  Two readers, atomics;
  std::uint8_t init = 0;
};

struct Tracker {
  Meta* meta;
  std::vector<std::pair<const char*, int>> sites;
  std::map<std::pair<const char*, int>, std::uint16_t> site_ids;
  Tracker() {
    void* m = mmap(nullptr, kArena * sizeof(Meta), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    meta = static_cast<Meta*>(m);  // zero: serial 0 matches no block
  }
  ~Tracker() { munmap(meta, kArena * sizeof(Meta)); }
  const char* last_file = nullptr;
  int last_line = 0;
  std::uint16_t last_id = kNone;
  std::uint16_t site(const char* file, int line) {
    if (file == last_file && line == last_line) return last_id;
    last_file = file;
    last_line = line;
    last_id = lookup(file, line);
    return last_id;
  }
  std::uint16_t lookup(const char* file, int line) {
    auto [it, fresh] = site_ids.emplace(std::make_pair(file, line), 0);
    if (fresh) {
      if (sites.size() >= kNone - 1) return kNone;
      it->second = static_cast<std::uint16_t>(sites.size());
      sites.emplace_back(file, line);
    }
    return it->second;
  }
  std::string site_words(std::uint16_t id) {
    return id < sites.size() ? where(sites[id].first, sites[id].second) : "?";
  }
};
Tracker& tracker() {
  static thread_local Tracker t;
  return t;
}

enum hazard { none, raw, war, waw };

}  // namespace

void hazard_track(Block& b, Thread* t, std::size_t off, std::size_t size, unsigned mode,
                  const char* file, int line, const char* func, const SharedObj& obj) {
  Tracker& tr = tracker();
  const std::uint16_t me = static_cast<std::uint16_t>(t->linear);
  const unsigned warp = t->linear >> 5;
  const std::uint16_t wsync = static_cast<std::uint16_t>(b.warps[warp].sync_count);
  const std::uint16_t here = tr.site(file, line);
  bool uninit = false;
  hazard found = none;
  const Access now{me, wsync, here};
  std::uint16_t other = kNone, other_site = kNone;
  bool same_warp = false, other_atomic = false;
  // Is the access `o` of another thread a hazard with this one? Then it is noted, if it is the
  // first.
  auto check = [&](const Access& o, hazard h, bool by_atomic = false) {
    if (o.thread == kNone || o.thread == me) return;
    if ((o.thread >> 5) == warp && o.wsync != wsync) return;  // a warp operation orders them
    if (found != none) return;
    found = h;
    other = o.thread;
    other_site = o.site;
    same_warp = (o.thread >> 5) == warp;
    other_atomic = by_atomic;
  };
  auto check_two = [&](const Two& o, hazard h, bool by_atomic = false) {
    check(o.a[0], h, by_atomic);
    check(o.a[1], h, by_atomic);
  };
  for (std::size_t i = off; i < off + size; ++i) {
    Meta& m = tr.meta[i];
    if (m.serial != b.serial) {
      m = Meta{};
      m.serial = b.serial;
      m.epoch = b.epoch;
    } else if (m.epoch != b.epoch) {
      m.epoch = b.epoch;
      m.writer = Access{};
      m.readers = m.atomics = Two{};
    }
    if (mode & mode_atomic) {
      // An atomic reads and writes: a plain access of another thread in this interval races.
      check(m.writer, waw);
      check_two(m.readers, war);
      m.atomics.remember(now);
      m.init = 1;
      continue;
    }
    check_two(m.atomics, (mode & wr) ? waw : raw, true);
    if (mode & rd) {
      if (!m.init) uninit = true;
      check(m.writer, raw);
      m.readers.remember(now);
    }
    if (mode & wr) {
      check(m.writer, waw);
      check_two(m.readers, war);
      m.writer = now;
      m.init = 1;
    }
  }
  if (!uninit && found == none) return;
  const finding_kind hazard_kind =
      found == none
          ? finding_kind::uninitialised_read
          : ((other >> 5) == warp ? finding_kind::warp_lockstep : finding_kind::shared_race);
  if (found != none && counted_quietly(hazard_kind, t, file, line)) found = none;
  if (uninit && (mode & rd) && !(mode & mode_atomic) &&
      counted_quietly(finding_kind::uninitialised_read, t, file, line))
    uninit = false;
  if (!uninit && found == none) return;
  const std::string name = obj.name;  // the dynamic arena is named "extern __shared__ (...)"
  const std::string what =
      (name.rfind("extern ", 0) == 0 ? name : "__shared__ " + name) + ", byte offset " +
      std::to_string(off - (obj.lo - reinterpret_cast<std::uintptr_t>(shared_arena_base())));
  if (uninit && (mode & rd) && !(mode & mode_atomic))
    report(finding_kind::uninitialised_read, t, file, line, func,
           "read of uninitialised shared memory",
           "thread " + dims(t->idx) + " reads " + std::to_string(size) + " bytes of " + what +
               " that no thread of this block wrote before. Shared memory starts "
               "uninitialised in every block.");
  if (found == none) return;
  const Thread& o = b.threads[other];
  const char* how = (mode & mode_atomic) ? "updates, with an atomic, bytes that"
                    : found == raw       ? "reads bytes that"
                                         : "writes bytes that";
  const char* did = other_atomic ? "updated with an atomic" : found == war ? "read" : "wrote";
  std::string detail = "thread " + dims(t->idx) + " " + how + " thread " + dims(o.idx) + " " + did +
                       " (at " + tr.site_words(other_site) + ") in " + what;
  // Both accesses from one line that reads and writes the same bytes: most often a shared
  // counter updated without an atomic (count[c] += 1), where a barrier is not the fix.
  const bool one_line_update = other_site == here && found != war;
  const std::string update_advice =
      " Both accesses are at this line: if it updates a shared value (count[c] += 1, ++n), two "
      "threads can read the same old value and one update is lost: make it an atomic "
      "(atomicAdd works on shared memory). Otherwise ";
  if (same_warp)
    report(finding_kind::warp_lockstep, t, file, line, func,
           "shared-memory access relies on warp lockstep",
           detail + ", both in one warp with no __syncwarp() in between." +
               (one_line_update ? update_advice + "threads" : std::string(" Threads")) +
               " of a warp do not run in lockstep (since Volta): add __syncwarp().");
  else
    report(finding_kind::shared_race, t, file, line, func,
           found == raw   ? "shared-memory race (read after write)"
           : found == war ? "shared-memory race (write after read)"
                          : "shared-memory race (write after write)",
           detail + " with no __syncthreads() in between." +
               (one_line_update ? update_advice + "add" : std::string(" Add")) +
               " __syncthreads() between the write and the other thread's access.");
}

}  // namespace gpulab_sim::detail
