// The value output buffers hold before a student's code runs. It is a quiet NaN with a payload
// that arithmetic does not produce, so the comparison can tell "never written" from "computed
// a NaN". Int32 outputs start with the same 32-bit word (2144000941), a value that an exact
// comparison tells from the expected one unless the expected one is that very value.
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

constexpr int32_t kPoisonInt = static_cast<int32_t>(kPoisonBits);

// What fresh device memory holds on the CPU backend (cudaMalloc and its kin fill every 32-bit
// word with it: sim/runtime/memory.cpp), whose contents CUDA leaves unspecified: code that
// reads scratch it never wrote gets wrong answers, not the zeros fresh pages hold. A quiet NaN
// as a float, 2145299902 as an int32, about 8e307 as a double; its payload differs from
// kPoisonBits because NaN payloads survive arithmetic, and a value computed from never-written
// scratch must not pass for an output that nothing wrote.
constexpr uint32_t kFreshDeviceBits = 0x7fdeadbeu;

template <class T>
T poison_value();
template <>
inline float poison_value<float>() {
  return poison_float();
}
template <>
inline int32_t poison_value<int32_t>() {
  return kPoisonInt;
}

inline bool is_poison(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b == kPoisonBits;
}

}  // namespace gpulab
