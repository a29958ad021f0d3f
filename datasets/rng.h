// A deterministic random source for dataset generators: the same (seed, stream) gives the same
// numbers on every compiler and standard library (std::*_distribution does not promise that).
#pragma once

#include <cstdint>

namespace gpulab {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed ^ 0x6a09e667f3bcc909ull) {}

  uint64_t next() {  // splitmix64
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

 private:
  uint64_t state_;
};

}  // namespace gpulab
