// The global-memory race detector's slow half (the fast path is in global_race.h): launch
// sequence numbers, the file table of write sites, and the decision and report when a word
// written in this launch is written again by another thread.
#include <cstring>
#include <mutex>
#include <vector>

#include "internal.h"

namespace gpulab_sim::detail {

__thread RaceSiteCache race_site_cache = {nullptr, 0};

namespace {

struct Files {
  std::mutex mu;
  std::vector<const char*> names{nullptr};  // id 0: unknown (the table is full)
};
Files& files() {
  static Files f;
  return f;
}

const char* file_name(std::uint32_t id) {
  Files& f = files();
  std::lock_guard<std::mutex> lock(f.mu);
  return id < f.names.size() ? f.names[id] : nullptr;
}

// Thread and block of a tag, as the message names them.
std::string who(std::uint64_t tag, const Launch& l) {
  const unsigned linear = static_cast<unsigned>(tag >> kRaceThreadShift & kRaceThreadMask);
  const uint3 t{linear % l.block.x, linear / l.block.x % l.block.y,
                linear / (l.block.x * l.block.y)};
  std::string r = "thread " + dims(t) + " of block ";
  const std::uint64_t nblocks = std::uint64_t{l.grid.x} * l.grid.y * l.grid.z;
  if (nblocks > kRaceBlockMask + 1) return r + "(?)";  // the tag keeps 20 bits of the block
  const std::uint64_t b = tag >> kRaceBlockShift & kRaceBlockMask;
  return r + dims(uint3{static_cast<unsigned>(b % l.grid.x),
                        static_cast<unsigned>(b / l.grid.x % l.grid.y),
                        static_cast<unsigned>(b / (std::uint64_t{l.grid.x} * l.grid.y))});
}

std::string site_words(std::uint32_t site) {
  const char* f = file_name(site >> 20);
  const int line = static_cast<int>(site & 0xfffff);
  return f ? where(f, line) : "an earlier line";
}

// A race found, or waiting for its store's value (plain stores on both sides).
struct Pending {
  Thread* t;
  std::uintptr_t off;
  std::uint64_t other;  // the earlier writer's tag
  std::uint64_t tag;    // this writer's
  std::uint32_t other_site;
  const char* file;
  int line;
  const char* func;
  std::uint32_t before;  // the word as the earlier writer left it
};
// Up to 4 per OS thread: the words of one store (a float4) wait together.
constexpr int kMaxPending = 4;
thread_local Pending pending[kMaxPending];
thread_local int npending = 0;

void report_race(const Pending& p) {
  if (counted_quietly(finding_kind::global_race, p.t, p.file, p.line)) return;
  const Launch& l = *p.t->block->launch;
  const std::uint64_t v = p.other, tag = p.tag;
  const std::string both = who(v, l) + " and " + who(tag, l);
  const std::string at = device_location(arena_base + p.off);
  const std::string sites = " (" + site_words(p.other_site) + " and " + where(p.file, p.line) + ")";
  const bool same_block = ((v ^ tag) >> kRaceBlockShift & kRaceBlockMask) == 0;
  const char* barrier = same_block ? " and no __syncthreads() between them"
                                   : " (they are in different blocks, which nothing orders)";
  if ((v ^ tag) & kRaceAtomic)
    report(finding_kind::global_race, p.t, p.file, p.line, p.func,
           "race on global memory (atomic and plain write)",
           both + " both wrote 4 bytes at " + at + sites +
               ", one with an atomic and one with a plain write" + barrier +
               ": the plain write can overwrite the atomic's update.");
  else
    report(finding_kind::global_race, p.t, p.file, p.line, p.func, "race on global memory",
           both + " both wrote 4 bytes at " + at + sites + " with no atomic" + barrier +
               ": one update can be lost.");
}

}  // namespace

__thread bool race_pending = false;

std::uint64_t race_next_launch() {
  // Called under the one-launch-at-a-time lock. When the 20-bit number wraps, old tags could
  // look current: forget them all (once per million launches).
  static std::uint64_t seq = 0;
  if (++seq > kRaceSeqMask) {
    race_forget_all();
    seq = 1;
  }
  return seq;
}

std::uint32_t race_file_id(const char* file) {
  Files& f = files();
  std::lock_guard<std::mutex> lock(f.mu);
  std::uint32_t id = 0;
  for (std::size_t i = 1; i < f.names.size() && !id; ++i)
    if (f.names[i] == file) id = static_cast<std::uint32_t>(i);
  if (!id && f.names.size() < 4096) {
    id = static_cast<std::uint32_t>(f.names.size());
    f.names.push_back(file);
  }
  race_site_cache = RaceSiteCache{file, id};
  return id;
}

void race_slow(std::uintptr_t off, std::uint64_t tag, bool store, const char* file, int line,
               const char* func) {
  if (npending == kMaxPending) race_settle();  // the stores before this access are done
  std::uint64_t* r = race_tags + off / 4;
  std::uint32_t* s = race_sites + off / 4;
  const std::uint64_t v = __atomic_load_n(r, __ATOMIC_RELAXED);
  const std::uint32_t other_site = __atomic_load_n(s, __ATOMIC_RELAXED);
  const std::uint64_t diff = v ^ tag;
  const bool same_thread =
      (diff >> kRaceThreadShift & (kRaceBlockMask << 10 | kRaceThreadMask)) == 0;
  std::uint32_t* l = race_locks + off / 4;
  const std::uint32_t other_lock = __atomic_load_n(l, __ATOMIC_RELAXED);
  const std::uint32_t lock = race_held_lock();
  // A thread's own atomic after its own plain write keeps the plain one on record, so that the
  // other threads' atomics still meet it.
  if (!(same_thread && (tag & kRaceAtomic) && !(v & kRaceAtomic))) {
    __atomic_store_n(r, tag, __ATOMIC_RELAXED);
    __atomic_store_n(s, race_site(file, line), __ATOMIC_RELAXED);
    if (lock || other_lock) __atomic_store_n(l, lock, __ATOMIC_RELAXED);
  }
  // The holder's plain store to its lock word releases it (after the store itself, which the
  // lock does not cover: it is the release).
  if (lock && off / 4 + 1 == lock && store) cur_thread->lock = 0;
  const bool same_launch = (diff >> kRaceSeqShift) == 0;
  const bool same_block = (diff >> kRaceBlockShift & kRaceBlockMask) == 0;
  const bool same_epoch = (diff >> kRaceEpochShift & kRaceEpochMask) == 0;
  if (!same_launch || same_thread || (same_block && !same_epoch) || (v & tag & kRaceAtomic) ||
      (lock && other_lock == lock))
    return;  // ordered: program order, a __syncthreads(), atomics on both sides, or one lock
  Thread* t = cur_thread;
  if (!t) return;
  Pending p{t, off, v, tag, other_site, file, line, func, 0};
  if (!((v | tag) & kRaceAtomic) && store) {
    // Two plain stores: unless this one stores a different value than the other did, nothing
    // is lost (e.g. many threads setting a "done" flag). Its value is known once the statement
    // has run: judged at the thread's next barrier, warp operation or exit.
    std::memcpy(&p.before, reinterpret_cast<const void*>(arena_base + off), 4);
    pending[npending++] = p;
    race_pending = true;
    return;
  }
  report_race(p);
}

void race_settle() {
  for (int i = 0; i < npending; ++i) {
    std::uint32_t now;
    std::memcpy(&now, reinterpret_cast<const void*>(arena_base + pending[i].off), 4);
    if (now != pending[i].before) report_race(pending[i]);
  }
  npending = 0;
  race_pending = false;
}

void race_drop_pending() {
  npending = 0;
  race_pending = false;
}

}  // namespace gpulab_sim::detail
