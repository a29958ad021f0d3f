// Fuzz target: the .npy reader (harness/npy.h) on a run's output, which is untrusted. Any input
// is read as each dtype; it must be rejected with an NpyError or give an array whose bytes are
// exactly its shape's worth.
#include <limits>
#include <sstream>
#include <string>

#include "fuzz_target.h"
#include "npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (const auto dtype : {gpulab::DType::f32, gpulab::DType::f64, gpulab::DType::i32,
                           gpulab::DType::i64, gpulab::DType::u8}) {
    std::istringstream in(bytes);
    try {
      const gpulab::NpyArray a = gpulab::read_npy(in, "fuzz.npy", dtype);
      FUZZ_REQUIRE(a.dtype == dtype);
      // The element count without wrapping around, and the bytes to match it.
      size_t count = 1;
      for (const size_t d : a.shape) {
        FUZZ_REQUIRE(d == 0 || count <= std::numeric_limits<size_t>::max() / d);
        count *= d;
      }
      FUZZ_REQUIRE(count == a.count());
      FUZZ_REQUIRE(count <= a.bytes.size() && a.bytes.size() == count * gpulab::dtype_size(dtype));
      FUZZ_REQUIRE(a.bytes.size() <= size);
    } catch (const gpulab::NpyError&) {
    }
  }
  return 0;
}
