// Warp operations: barriers among the threads of their mask, which must all arrive with the
// same mask; the last to arrive computes every participant's result.
#include <atomic>
#include <chrono>
#include <cstring>

#include "internal.h"

namespace gpulab_sim::detail {
namespace {

const char* op_name(int op) {
  switch (op) {
    case wop_sync:
      return "__syncwarp";
    case wop_shfl:
      return "__shfl_sync";
    case wop_up:
      return "__shfl_up_sync";
    case wop_down:
      return "__shfl_down_sync";
    case wop_xor:
      return "__shfl_xor_sync";
    case wop_ballot:
      return "__ballot_sync";
    case wop_any:
      return "__any_sync";
    case wop_all:
      return "__all_sync";
    case wop_match_any:
      return "__match_any_sync";
    default:
      return "__reduce_*_sync";
  }
}

// The lane whose value a shuffle returns to `lane` (itself where CUDA says "own value").
unsigned shuffle_source(int op, unsigned lane, int arg, int width) {
  const unsigned w = static_cast<unsigned>(width);
  const unsigned seg = lane & ~(w - 1);
  switch (op) {
    case wop_shfl:
      return seg + (static_cast<unsigned>(arg) & (w - 1));
    case wop_up:
      return (lane - seg) >= static_cast<unsigned>(arg) ? lane - arg : lane;
    case wop_down:
      return (lane - seg) + static_cast<unsigned>(arg) < w ? lane + arg : lane;
    case wop_xor: {
      const unsigned src = lane ^ static_cast<unsigned>(arg);
      return src >= seg + w || src >= 32 ? lane : src;  // later segments: own value
    }
  }
  return lane;
}

void complete(Block& b, Warp& w, const WarpGroup& g, unsigned base, Thread* self) {
  unsigned long long ballot = 0, sum = 0, mn = ~0ull, mx = 0, an = ~0ull, orr = 0, xr = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(g.mask >> l & 1)) continue;
    const unsigned long long v = b.threads[base + l].wvalue;
    if (v) ballot |= 1ull << l;
    sum += v;
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
    an &= v;
    orr |= v;
    xr ^= v;
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(g.mask >> l & 1)) continue;
    Thread* t = &b.threads[base + l];
    unsigned long long r = 0;
    switch (g.op) {
      case wop_shfl:
      case wop_up:
      case wop_down:
      case wop_xor: {
        const unsigned src = shuffle_source(g.op, l, t->warg, t->wwidth);
        // A source outside the mask has no defined value on the GPU; return the caller's own.
        r = (g.mask >> src & 1) ? b.threads[base + src].wvalue : t->wvalue;
        break;
      }
      case wop_ballot:
        r = ballot;
        break;
      case wop_any:
        r = ballot != 0;
        break;
      case wop_all:
        r = ballot == g.mask;
        break;
      case wop_add:
        r = static_cast<unsigned>(sum);
        break;
      case wop_min:
        r = mn;
        break;
      case wop_max:
        r = mx;
        break;
      case wop_and:
        r = an;
        break;
      case wop_or:
        r = orr;
        break;
      case wop_xor_reduce:
        r = xr;
        break;
      case wop_match_any:
        for (unsigned k = 0; k < 32; ++k)
          if ((g.mask >> k & 1) && b.threads[base + k].wvalue == t->wvalue) r |= 1ull << k;
        break;
      default:
        break;
    }
    t->wresult = r;
    t->state = tstate::running;
    if (t != self) make_ready(b, t);
  }
  ++w.sync_count;
}

}  // namespace

unsigned long long warp_collective(int op, unsigned mask, unsigned long long value, int arg,
                                   int width, const char* file, int line) {
  Thread* t = cur_thread;
  if (!t) return value;
  Block& b = *t->block;
  const unsigned lane = t->linear & 31;
  const unsigned base = t->linear & ~31u;
  const char* name = op_name(op);
  if (!(mask >> lane & 1))
    fail(finding_kind::warp_mask, t, file, line, nullptr, "bad warp mask",
         std::string(name) + " is called with mask " + hex(mask) +
             ", which does not include the calling "
             "thread (lane " +
             std::to_string(lane) + "). The mask must name every calling thread.");
  // Lanes past the end of the block's last warp do not exist: like exited threads on the GPU,
  // leniently left out of a full mask.
  const unsigned lanes = b.n - base >= 32 ? ~0u : (1u << (b.n - base)) - 1;
  mask &= lanes;
  if (op >= wop_shfl && op <= wop_xor && (width < 1 || width > 32 || (width & (width - 1))))
    fail(finding_kind::warp_mask, t, file, line, nullptr, "bad shuffle width",
         std::string(name) + " is called with width " + std::to_string(width) +
             "; it must be a power of 2 from 1 to 32.");
  for (unsigned l = 0; l < 32; ++l)
    if ((mask >> l & 1) && base + l < b.next && b.threads[base + l].state == tstate::exited)
      fail(finding_kind::warp_mask, t, file, line, nullptr, "bad warp mask",
           std::string(name) + " is called with mask " + hex(mask) + ", which names lane " +
               std::to_string(l) + " (thread " + dims(b.threads[base + l].idx) +
               "), which has already returned. The mask must name only threads that call it.");
  Warp& w = b.warps[t->linear >> 5];
  WarpGroup* g = nullptr;
  for (WarpGroup& x : w.groups) {
    if (!(x.mask & mask)) continue;
    if (x.mask != mask || x.op != op)
      fail(finding_kind::warp_mask, t, file, line, nullptr, "bad warp mask",
           "lane " + std::to_string(lane) + " calls " + std::string(name) + " with mask " +
               hex(mask) + " while other lanes of its warp wait in " + op_name(x.op) + " at " +
               where(x.file, x.line) + " with mask " + hex(x.mask) +
               ". The threads of a warp operation must all pass the same mask.");
    g = &x;
  }
  if (!g) {
    w.groups.push_back(WarpGroup{mask, 0, op, file, line});
    ++b.warp_groups;
    g = &w.groups.back();
  }
  t->state = tstate::warp;
  t->wmask = mask;
  t->wop = op;
  t->warg = arg;
  t->wwidth = width;
  t->wvalue = value;
  t->wfile = file;
  t->wline = line;
  g->arrived |= 1u << lane;
  if (g->arrived == mask) {
    const WarpGroup done = *g;
    *g = w.groups.back();
    w.groups.pop_back();
    --b.warp_groups;
    complete(b, w, done, base, t);
  } else {
    block_current(t);
  }
  return t->wresult;
}

// Threads of a warp do not run in lockstep here, so "the threads active now" is taken to be
// the lanes that reach this same __activemask() call: each caller waits until the block can go
// no further (every other thread waits somewhere or has returned), then gets the mask of the
// lanes of its warp waiting at the same call.
unsigned active_mask(const char* file, int line) {
  Thread* t = cur_thread;
  if (!t) return 1;
  t->state = tstate::warp;
  t->wop = wop_active;
  t->wfile = file;
  t->wline = line;
  t->wmask = 0;
  block_current(t);
  return static_cast<unsigned>(t->wresult);
}

bool resolve_active_masks(Block& b) {
  bool any = false;
  for (unsigned base = 0; base < b.next; base += 32) {
    const unsigned end = b.next - base < 32 ? b.next - base : 32;
    for (unsigned l = 0; l < end; ++l) {
      const Thread& first = b.threads[base + l];
      if (first.state != tstate::warp || first.wop != wop_active) continue;
      unsigned mask = 0;
      for (unsigned k = l; k < end; ++k) {
        const Thread& o = b.threads[base + k];
        if (o.state == tstate::warp && o.wop == wop_active && o.wline == first.wline &&
            !std::strcmp(o.wfile, first.wfile))
          mask |= 1u << k;
      }
      for (unsigned k = l; k < end; ++k) {
        if (!(mask >> k & 1)) continue;
        Thread* o = &b.threads[base + k];
        o->wresult = mask;
        o->state = tstate::running;
        make_ready(b, o);
      }
      any = true;
      break;  // one call site per warp at a time
    }
  }
  return any;
}

void fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

long long clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace gpulab_sim::detail
