// The orders of adds that parallel scans use, replayed in float32 on the CPU. Float addition is
// deterministic, so each function here computes bit for bit what a GPU kernel with that order
// of adds writes (docs/PERF.md, "Scan tolerance calibration"). Generic over the scan's monoid:
// Plain (a prefix sum) or Segmented (a prefix sum restarted at head flags).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpulab::calibration {

struct Plain {
  using T = float;
  static T id() { return 0.0f; }
  static T op(T a, T b) { return a + b; }
  static T make(float x, bool /*head*/) { return x; }
  static float value(T a) { return a; }
  static T with_value(T, float v) { return v; }
  // The exclusive output at k, from the prefix before k and element k itself.
  static float exclusive(T before, T /*x*/) { return before; }
};

struct Segmented {
  struct T {
    bool head;
    float v;
  };
  static T id() { return {false, 0.0f}; }
  // The segmented operator: b's head discards a, else the values add (the only rounding).
  static T op(T a, T b) { return {a.head || b.head, b.head ? b.v : a.v + b.v}; }
  static T make(float x, bool head) { return {head, x}; }
  static float value(T a) { return a.v; }
  static T with_value(T a, float v) { return {a.head, v}; }
  static float exclusive(T before, T x) { return x.head ? 0.0f : before.v; }
};

// How the tiles' carries (the sum of everything before a tile) are formed.
enum class Carries {
  reduce_then_scan,  // tile totals by a separate tree reduction, scanned recursively
  chained,           // tile t waits for tile t-1's inclusive prefix and adds its aggregate
  lookback,          // decoupled look-back: the predecessors' aggregates summed in reverse
                     // until one's inclusive prefix is found `window` tiles back
  dropped,           // never added (a planted bug)
};

struct Order {
  int threads = 256;  // per tile; the threads' totals are combined by a Brent-Kung tree
  int chunk = 16;     // consecutive items each thread scans serially
  Carries carries = Carries::reduce_then_scan;
  int window = 1;              // lookback: how many tiles back the inclusive prefix is found
  bool random_window = false;  // lookback: each tile's window drawn in [1, window]
};

namespace detail {

// The Brent-Kung scan of the reference (labs' reference/scan/scan.cu): up-sweep in place, the
// root saved (the tile's aggregate) and cleared, down-sweep. s.size() is a power of two.
template <class M>
typename M::T brent_kung_exclusive(std::vector<typename M::T>& s) {
  const size_t p = s.size();
  for (size_t stride = 1; stride < p; stride *= 2)
    for (size_t i = 2 * stride - 1; i < p; i += 2 * stride) s[i] = M::op(s[i - stride], s[i]);
  const typename M::T root = s[p - 1];
  s[p - 1] = M::id();
  for (size_t stride = p / 2; stride >= 1; stride /= 2)
    for (size_t i = 2 * stride - 1; i < p; i += 2 * stride) {
      const typename M::T left = s[i - stride];
      s[i - stride] = s[i];
      s[i] = M::op(s[i], left);
    }
  return root;
}

// A pairwise tree over x[lo, hi): how a block reduction (shuffles) sums its tile.
template <class M>
typename M::T tree_sum(const typename M::T* x, size_t lo, size_t hi) {
  if (hi - lo == 1) return x[lo];
  const size_t mid = lo + (hi - lo) / 2;
  return M::op(tree_sum<M>(x, lo, mid), tree_sum<M>(x, mid, hi));
}

inline uint64_t mix(uint64_t z) {  // splitmix64's finalizer: a fixed window per tile
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace detail

// The scan of x in `order`: before[k] receives the monoid prefix of everything before k (what
// the exclusive output is made from), inc[k] the inclusive output. Tiles are threads * chunk
// items; inside one, each thread scans its chunk serially on top of its prefix (the tile's
// carry plus the Brent-Kung exclusive scan of the threads' totals), as the reference does.
template <class M>
void tiled_scan(const std::vector<typename M::T>& x, const Order& order,
                std::vector<typename M::T>& before, std::vector<float>& inc) {
  using T = typename M::T;
  const size_t n = x.size(), p = static_cast<size_t>(order.threads),
               c = static_cast<size_t>(order.chunk), tile = p * c;
  const size_t tiles = (n + tile - 1) / tile;
  before.assign(n, M::id());
  inc.assign(n, 0.0f);
  // Each tile's threads' exclusive prefixes, and its aggregate (the up-sweep's root).
  std::vector<T> prefixes(tiles * p), aggregate(tiles);
  std::vector<T> s(p);
  for (size_t t = 0; t < tiles; ++t) {
    for (size_t j = 0; j < p; ++j) {
      T sum = M::id();
      for (size_t k = t * tile + j * c; k < std::min(n, t * tile + (j + 1) * c); ++k)
        sum = M::op(sum, x[k]);
      s[j] = sum;
    }
    aggregate[t] = detail::brent_kung_exclusive<M>(s);
    std::copy(s.begin(), s.end(), prefixes.begin() + static_cast<std::ptrdiff_t>(t * p));
  }
  std::vector<T> carry(tiles, M::id());
  switch (order.carries) {
    case Carries::dropped:
      break;
    case Carries::reduce_then_scan: {
      if (tiles == 1) break;
      // The totals are scanned the same way: a tile of one item would never get shorter.
      if (tile < 2) throw std::invalid_argument("reduce-then-scan needs tiles of 2 or more items");
      std::vector<T> totals(tiles);
      for (size_t t = 0; t < tiles; ++t)
        totals[t] = detail::tree_sum<M>(x.data(), t * tile, std::min(n, (t + 1) * tile));
      std::vector<float> ignored;
      tiled_scan<M>(totals, order, carry, ignored);  // the carries: an exclusive scan
      break;
    }
    case Carries::chained:
    case Carries::lookback: {
      std::vector<T> inclusive(tiles);
      inclusive[0] = aggregate[0];
      for (size_t t = 1; t < tiles; ++t) {
        if (order.carries == Carries::chained) {
          carry[t] = inclusive[t - 1];
          inclusive[t] = M::op(carry[t], aggregate[t]);
          continue;
        }
        const size_t w = static_cast<size_t>(order.window);
        const size_t window = order.random_window ? 1 + detail::mix(t) % w : w;
        // Reverse: the nearest predecessor's aggregate first, each older one added on its left,
        // until `window` aggregates are summed (tiles j..t-1) or tile 0 is reached.
        size_t j = t - 1;
        T acc = aggregate[j];
        while (j > 0 && t - j < window) {
          --j;
          acc = M::op(aggregate[j], acc);
        }
        // Tile j-1 has published its inclusive prefix; at j == 0 the aggregates reach the start.
        carry[t] = j > 0 ? M::op(inclusive[j - 1], acc) : acc;
        inclusive[t] = M::op(carry[t], aggregate[t]);
      }
      break;
    }
  }
  for (size_t t = 0; t < tiles; ++t)
    for (size_t j = 0; j < p; ++j) {
      const T prefix = M::op(carry[t], prefixes[t * p + j]);
      T sum = M::id();
      for (size_t k = t * tile + j * c; k < std::min(n, t * tile + (j + 1) * c); ++k) {
        before[k] = M::op(prefix, sum);
        sum = M::op(sum, x[k]);
        inc[k] = M::value(M::op(prefix, sum));
      }
    }
}

// One loop over all n elements: the longest chain of adds there is.
template <class M>
void sequential_scan(const std::vector<typename M::T>& x, std::vector<typename M::T>& before,
                     std::vector<float>& inc) {
  before.assign(x.size(), M::id());
  inc.assign(x.size(), 0.0f);
  typename M::T acc = M::id();
  for (size_t k = 0; k < x.size(); ++k) {
    before[k] = acc;
    acc = M::op(acc, x[k]);
    inc[k] = M::value(acc);
  }
}

// Round to half precision (round to nearest even; the cheat's __float2half), for |x| <= 65504.
inline float to_half(float x) {
  if (x == 0.0f) return x;
  const int e = std::max(std::ilogb(x), -14);  // below 2^-14 the subnormal spacing 2^-24
  const double q = std::ldexp(1.0, e - 10);
  return static_cast<float>(std::nearbyint(static_cast<double>(x) / q) * q);
}

}  // namespace gpulab::calibration
