// Randomness nobody can predict, from the kernel (getrandom): for names and ids that student
// code must not be able to guess.
#pragma once

#include <cstddef>
#include <string>

namespace gpulab {

// Fills `out` with `n` bytes from getrandom(2). Throws std::runtime_error when the kernel gives
// none (it blocks only until the pool is first seeded, early in boot).
void random_bytes(void* out, size_t n);

// `bytes` random bytes as lowercase hex (2 digits each): random_hex(16) is a 128-bit name.
std::string random_hex(size_t bytes);

}  // namespace gpulab
