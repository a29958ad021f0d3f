// The value output buffers hold before a student's code runs. It is a quiet NaN with a payload
// that arithmetic does not produce, so the comparison can tell "never written" from "computed
// a NaN".
#pragma once

#include <cstdint>
#include <cstring>

namespace gpulab {

constexpr uint32_t kPoisonBits = 0x7fcadbadu;

inline float poison_float() {
  float f;
  std::memcpy(&f, &kPoisonBits, sizeof f);
  return f;
}

inline bool is_poison(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b == kPoisonBits;
}

}  // namespace gpulab
