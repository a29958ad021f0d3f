// Shared-memory hazards and uninitialised shared reads. Per byte of the shared arena: who
// wrote it and who read it in the current barrier interval (epoch), and whether anything
// wrote it in this block. Two different threads touching a byte in one interval, one of them
// writing, is a hazard: between warps a race, inside a warp a reliance on lockstep unless a
// warp operation (__syncwarp, shuffles, votes) came in between. Atomics do not race with each
// other, but an atomic and a plain access of another thread in one interval do (a histogram
// zeroed, or read out, without a barrier before or after its atomicAdds). Where both threads
// read and then wrote the same bytes without an atomic, each at the same point of its code
// (count[c] += 1), the hazard is a lost update, whichever warps they are in: a barrier does not
// fix it, an atomic does. An atomic
// reads too: one on bytes nothing wrote in this block is an uninitialised read.
#include <sys/mman.h>

#include <map>
#include <new>
#include <utility>
#include <vector>

#include "internal.h"

namespace gpulab_sim::detail {
namespace {

constexpr std::size_t kArena = 512 * 1024;  // as shared.cpp
constexpr std::uint16_t kNone = 0xffff;

// One thread's access: who, the warp's sync count then, where, and the how-manieth time this
// thread reached that site in the interval (Ordinals).
struct Access {
  std::uint16_t thread = kNone, wsync = 0, site = kNone, nth = 0;
};

// How many times a thread has reached each site in the current barrier interval (the first few
// sites it reaches; kNone past them). Two threads' read-modify-writes of one byte are a lost
// update when they are the same reach of the same site, as `count[c] += 1` by every thread is:
// no barrier can order them, an atomic fixes them. The same site reached at different times is
// a step of one thread meeting another step of another (a reduction tree's up-sweep without a
// barrier between its steps): a missing __syncthreads().
struct Ordinals {
  std::uint32_t serial = 0, epoch = 0;  // the block and interval the counts belong to
  std::uint8_t used = 0;
  std::uint16_t site[8] = {}, count[8] = {};
  std::uint16_t next(std::uint32_t at_serial, std::uint32_t at_epoch, std::uint16_t at) {
    if (serial != at_serial || epoch != at_epoch) {
      serial = at_serial;
      epoch = at_epoch;
      used = 0;
    }
    for (std::uint8_t k = 0; k < used; ++k)
      if (site[k] == at) return count[k] < kNone - 1 ? ++count[k] : kNone;
    if (used == 8) return kNone;
    site[used] = at;
    count[used] = 1;
    ++used;
    return 1;
  }
};

// Two threads' accesses of one kind: the first, and the last by another thread. A thread's own
// access never conflicts with it, so one record would hide the others'.
struct Two {
  Access a[2];
  void remember(const Access& x) { a[a[0].thread == kNone || a[0].thread == x.thread ? 0 : 1] = x; }
  bool has(std::uint16_t thread) const { return a[0].thread == thread || a[1].thread == thread; }
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
  std::vector<Ordinals> ordinals;  // by the thread's linear index in its block
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

bool same_reach(const Access& a, const Access& b) {
  return a.site == b.site && a.nth == b.nth && a.nth != kNone;
}

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
  if (tr.ordinals.size() <= me) tr.ordinals.resize(std::size_t{me} + 1);
  const Access now{me, wsync, here, tr.ordinals[me].next(b.serial, b.epoch, here)};
  std::uint16_t other = kNone, other_site = kNone;
  bool same_warp = false, other_atomic = false, lost = false;
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
      if (!m.init && !b.launch->unchecked) uninit = true;
      check(m.writer, waw);
      check_two(m.readers, war);
      m.atomics.remember(now);
      m.init = 1;
      continue;
    }
    check_two(m.atomics, (mode & wr) ? waw : raw, true);
    if (mode & rd) {
      if (!m.init) uninit = true;
      const bool first = found == none;
      check(m.writer, raw);
      // The other thread read these bytes before it wrote them, and this access writes them
      // back: a read-modify-write each, at the same point of their code (Ordinals).
      if (first && found == raw && (mode & wr) && m.readers.has(other) && same_reach(m.writer, now))
        lost = true;
      m.readers.remember(now);
    }
    if (mode & wr) {
      const bool first = found == none;
      check(m.writer, waw);
      // The same, spelled as a read and then a write (count[c] = count[c] + 1).
      if (first && found == waw && m.readers.has(me) && m.readers.has(other) &&
          same_reach(m.writer, now))
        lost = true;
      check_two(m.readers, war);
      m.writer = now;
      m.init = 1;
    }
  }
  if (!uninit && found == none) return;
  const finding_kind hazard_kind = lost                   ? finding_kind::lost_update
                                   : (other >> 5) == warp ? finding_kind::warp_lockstep
                                                          : finding_kind::shared_race;
  if (found != none && counted_quietly(hazard_kind, t, file, line)) found = none;
  if (uninit && counted_quietly(finding_kind::uninitialised_read, t, file, line)) uninit = false;
  if (!uninit && found == none) return;
  const std::string name = obj.name;  // the dynamic arena is named "extern __shared__ (...)"
  std::string what =
      (name.rfind("extern ", 0) == 0 ? name : "__shared__ " + name) + ", byte offset " +
      std::to_string(off - (obj.lo - reinterpret_cast<std::uintptr_t>(shared_arena_base())));
  if (obj.file) what += " (declared at " + where(obj.file, obj.line) + ")";
  if (uninit)
    report(finding_kind::uninitialised_read, t, file, line, func,
           "read of uninitialised shared memory",
           "thread " + dims(t->idx) +
               ((mode & mode_atomic) ? " updates, with an atomic, " : " reads ") +
               std::to_string(size) + " bytes of " + what +
               " that no thread of this block wrote before: shared memory starts with no "
               "values in every block, so what it reads differs from block to block and GPU to "
               "GPU.");
  if (found == none) return;
  const Thread& o = b.threads[other];
  const char* how = (mode & mode_atomic) ? "updates, with an atomic, bytes that"
                    : found == raw       ? "reads bytes that"
                                         : "writes bytes that";
  const char* did = other_atomic ? "updated with an atomic" : found == war ? "read" : "wrote";
  const std::string detail = "thread " + dims(t->idx) + " " + how + " thread " + dims(o.idx) + " " +
                             did + " (at " + tr.site_words(other_site) + ") in " + what;
  if (lost)
    report(finding_kind::lost_update, t, file, line, func,
           "lost update of shared memory (read-modify-write without an atomic)",
           detail + "; both threads read these bytes and then wrote them back, with no atomic.");
  else if (same_warp)
    report(finding_kind::warp_lockstep, t, file, line, func,
           "shared-memory access relies on warp lockstep",
           detail + ", both in one warp with no __syncwarp() in between.");
  else
    report(finding_kind::shared_race, t, file, line, func,
           found == raw   ? "shared-memory race (read after write)"
           : found == war ? "shared-memory race (write after read)"
                          : "shared-memory race (write after write)",
           detail + " with no __syncthreads() in between.");
}

}  // namespace gpulab_sim::detail
