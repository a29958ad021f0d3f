// What every fuzz target (tests/fuzz/fuzz_*.cpp) defines: libFuzzer's entry point. A target
// returns normally for any input its code must survive, rejections included (the documented
// exception); anything else (a crash, an undocumented exception, a broken invariant, which
// aborts) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// A broken invariant: says which and aborts, so libFuzzer and the replay driver both stop on it.
#define FUZZ_REQUIRE(cond)                                                              \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)
