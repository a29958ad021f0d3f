// The cost model (profile.h): each access of a block's threads is noted in its thread's list;
// when the block ends, each warp's lists are matched into requests and costed, and the totals
// are added to its kernel's under a lock. Sums do not depend on the order blocks run in, so the
// counts are the same on every run.
#include <gpulab_sim/profile.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "internal.h"

namespace gpulab_sim {
namespace detail {

bool profile_on = false;

namespace {

enum space : unsigned { global_space = 0, shared_space = 8 };

struct Note {
  const char* file;
  int line;
  unsigned kind;  // mode (rd, wr, rw or mode_atomic) | space
  std::uintptr_t addr;
  std::size_t size;
};
// The running block's notes, by thread (its linear index), on this OS thread.
thread_local std::vector<std::vector<Note>> block_notes;

struct Kernels {
  std::mutex mu;
  std::vector<kernel_cost> list;                             // in the order of first launch
  std::map<std::pair<const char*, int>, std::size_t> index;  // launch site -> its place
};
Kernels& kernels() {
  static Kernels k;
  return k;
}
kernel_cost& kernel_at(Kernels& k, const char* file, int line) {
  const auto [at, fresh] = k.index.emplace(std::make_pair(file, line), k.list.size());
  if (fresh) {
    k.list.emplace_back();
    k.list.back().file = file ? file : "";
    k.list.back().line = line;
  }
  return k.list[at->second];
}

// One warp request: where it was made, and the (address, size) of each lane that made it.
struct Site {
  const char* file;
  int line;
  unsigned kind;
  unsigned k;  // the lane's k-th access at this site
  bool operator<(const Site& o) const {
    return std::tie(file, line, kind, k) < std::tie(o.file, o.line, o.kind, o.k);
  }
};
using Lanes = std::vector<std::pair<std::uintptr_t, std::size_t>>;

// `units` sorted, without repeats: the distinct `unit`-byte blocks the lanes touch. Lanes mostly
// touch ascending addresses (or one: a broadcast), which needs no sort.
void distinct_units(const Lanes& lanes, std::uintptr_t unit, std::vector<std::uintptr_t>& units) {
  units.clear();
  bool ascending = true;
  for (const auto& [a, n] : lanes)
    for (std::uintptr_t u = a / unit; u <= (a + n - 1) / unit; ++u) {
      if (!units.empty() && u <= units.back()) {
        ascending = ascending && u == units.back();
        if (u == units.back()) continue;
      }
      units.push_back(u);
    }
  if (ascending) return;
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
}

std::uint64_t distinct_sectors(const Lanes& lanes) {
  thread_local std::vector<std::uintptr_t> sectors;
  distinct_units(lanes, 32, sectors);
  return sectors.size();
}

// Shared memory serves 32 banks of 4-byte words, 128 bytes a wavefront: a request takes as many
// wavefronts as the most distinct words one bank must serve (lanes reading one word share it),
// and at least its distinct bytes / 128.
std::uint64_t wavefronts(const Lanes& lanes) {
  thread_local std::vector<std::uintptr_t> words;
  distinct_units(lanes, 4, words);
  unsigned per_bank[32] = {};
  for (std::uintptr_t w : words) ++per_bank[w % 32];
  const std::uint64_t worst = *std::max_element(per_bank, per_bank + 32);
  return std::max<std::uint64_t>({1, worst, (words.size() * 4 + 127) / 128});
}

std::uint64_t most_on_one_address(const Lanes& lanes) {
  thread_local std::vector<std::uintptr_t> at;
  at.clear();
  for (const auto& l : lanes) at.push_back(l.first);
  if (!std::is_sorted(at.begin(), at.end())) std::sort(at.begin(), at.end());
  std::uint64_t most = 0, run = 0;
  for (std::size_t i = 0; i < at.size(); ++i) {
    run = i > 0 && at[i] == at[i - 1] ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

void add_request(kernel_cost& c, unsigned kind, const Lanes& lanes, unsigned width) {
  c.lane_slots += width;
  c.lanes_active += lanes.size();
  std::uint64_t bytes = 0;
  for (const auto& l : lanes) bytes += l.second;
  const unsigned mode = kind & 7;  // an atomic's is rw | mode_atomic (access_slow's)
  const bool atomic = mode & mode_atomic;
  if (kind & shared_space) {
    // A shared atomic is a shared request whose lanes on one address go one after another.
    ++c.shared_requests;
    c.shared_wavefronts +=
        atomic ? std::max(wavefronts(lanes), most_on_one_address(lanes)) : wavefronts(lanes);
  } else if (atomic) {
    ++c.atomic_requests;
    c.atomic_ops += lanes.size();
    c.atomic_serial += most_on_one_address(lanes);
  } else {
    const std::uint64_t sectors = distinct_sectors(lanes);
    if (mode & rd) {
      ++c.load_requests;
      c.load_sectors += sectors;
      c.load_bytes += bytes;
    }
    if (mode & wr) {
      ++c.store_requests;
      c.store_sectors += sectors;
      c.store_bytes += bytes;
    }
  }
}

bool same_site(const Note& a, const Note& b) {
  return a.file == b.file && a.line == b.line && a.kind == b.kind;
}

// The requests of warp [first, first + width): each lane's k-th note at a site joins the k-th
// of every other lane's there. Where every lane made the same accesses in the same order (no
// divergence: the common case), that is the j-th note of each lane, matched without a lookup.
void cost_warp(kernel_cost& c, unsigned first, unsigned width) {
  // block_notes holds a list for each thread of the block (profile_block_end).
  bool uniform = true;
  for (unsigned lane = 1; uniform && lane < width; ++lane) {
    const auto& a = block_notes[first];
    const auto& b = block_notes[first + lane];
    uniform = a.size() == b.size();
    for (std::size_t j = 0; uniform && j < a.size(); ++j) uniform = same_site(a[j], b[j]);
  }
  if (uniform) {
    Lanes request;
    for (std::size_t j = 0; j < block_notes[first].size(); ++j) {
      request.clear();
      for (unsigned lane = 0; lane < width; ++lane) {
        const Note& n = block_notes[first + lane][j];
        request.emplace_back(n.addr, n.size);
      }
      add_request(c, block_notes[first][j].kind, request, width);
    }
    return;
  }
  std::map<Site, Lanes> requests;
  for (unsigned lane = 0; lane < width; ++lane) {
    std::map<Site, unsigned> seen;  // k = 0 at each site
    for (const Note& n : block_notes[first + lane]) {
      Site s{n.file, n.line, n.kind, 0};
      s.k = seen[s]++;
      requests[s].emplace_back(n.addr, n.size);
    }
  }
  for (const auto& [site, lanes] : requests) add_request(c, site.kind, lanes, width);
}

}  // namespace

void profile_note(const Thread& t, std::uintptr_t a, std::size_t size, unsigned mode,
                  const char* file, int line) {
  const unsigned kind = mode | (shared_contains(a) ? shared_space : global_space);
  if (block_notes.size() < t.block->n) block_notes.resize(t.block->n);
  block_notes[t.linear].push_back(Note{file, line, kind, a, size});
}

void profile_block_end(const Block& b) {
  // A list per thread, those that noted nothing (or a block that touched no memory) included.
  if (block_notes.size() < b.n) block_notes.resize(b.n);
  kernel_cost c;
  for (unsigned first = 0; first < b.n; first += 32)
    cost_warp(c, first, std::min(32u, b.n - first));
  for (auto& notes : block_notes) notes.clear();
  Kernels& k = kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  kernel_cost& total = kernel_at(k, b.launch->file, b.launch->line);
  c.blocks = 1;
  c.threads = b.n;
  c.barriers = b.epoch;
#define GPULAB_SIM_COST(name, what) total.name += c.name;
#include <gpulab_sim/costs.def>
}

void profile_launch(const Launch& l) {
  Kernels& k = kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  kernel_at(k, l.file, l.line).launches += 1;
}

}  // namespace detail

double estimate_seconds(const kernel_cost& c, const gpu_constants& gpu) {
  const double memory =
      32.0 * static_cast<double>(c.load_sectors + c.store_sectors) / gpu.dram_bytes_per_s;
  const double shared = static_cast<double>(c.shared_wavefronts) / gpu.shared_wavefronts_per_s;
  const double atomics = static_cast<double>(c.atomic_serial) / gpu.atomics_per_s;
  return std::max({memory, shared, atomics}) + static_cast<double>(c.launches) * gpu.launch_s;
}

void profile_start() {
  detail::Kernels& k = detail::kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  k.list.clear();
  k.index.clear();
  detail::profile_switch(true);
}

std::vector<kernel_cost> profile_take() {
  detail::Kernels& k = detail::kernels();
  std::lock_guard<std::mutex> lock(k.mu);
  detail::profile_switch(false);
  return k.list;
}

}  // namespace gpulab_sim
