// harness/input_sets.h on a GPU (suite "gpu": `unit_gpu` in ctest, skipped without one): the
// input check reads a device input back in 16 MiB pieces, two pinned buffers in turn, so a
// change is found wherever it lies, in the first piece, a later one or the last, uneven one,
// and the first change is the one named; an input left as it was passes.
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "cuda_check.h"
#include "device_buffer.h"
#include "input_sets.h"
#include "run_part.h"
#include "test_util.h"

namespace {

constexpr size_t kPiece = size_t{16} << 20;  // first_device_difference's piece
// Three whole pieces and an uneven tail: every piece's seam, and a last piece shorter than the
// buffers.
constexpr size_t kBytes = 3 * kPiece + 4093;

std::vector<unsigned char> pattern(size_t bytes) {
  std::vector<unsigned char> v(bytes);
  for (size_t i = 0; i < bytes; ++i) v[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
  return v;
}

void set_byte(void* device, size_t at, unsigned char value) {
  GPULAB_CUDA(
      cudaMemcpy(static_cast<unsigned char*>(device) + at, &value, 1, cudaMemcpyHostToDevice));
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("a device input's first change is found in any piece of the read-back") {
    const std::vector<unsigned char> host = pattern(kBytes);
    gpulab::DeviceBuffer<unsigned char> device(kBytes);
    device.upload(host.data());
    CHECK(gpulab::first_device_difference(device.get(), host.data(), kBytes) == -1);
    CHECK(gpulab::first_device_difference(device.get(), host.data(), 0) == -1);

    // One change at a time: each piece's first and last byte, and places inside.
    const size_t places[] = {0,          1,          kPiece - 1,         kPiece,
                             kPiece + 7, 2 * kPiece, 2 * kPiece + 99991, 3 * kPiece - 1,
                             3 * kPiece, kBytes - 1};
    for (size_t at : places) {
      CAPTURE(at);
      set_byte(device.get(), at, static_cast<unsigned char>(host[at] ^ 0x40));
      CHECK(gpulab::first_device_difference(device.get(), host.data(), kBytes) ==
            static_cast<long long>(at));
      set_byte(device.get(), at, host[at]);
    }
    CHECK(gpulab::first_device_difference(device.get(), host.data(), kBytes) == -1);

    // Two changes: the earlier is named, whichever piece holds the later.
    set_byte(device.get(), 2 * kPiece + 5, 0xA5 ^ host[2 * kPiece + 5]);
    set_byte(device.get(), kBytes - 2, 0x5A ^ host[kBytes - 2]);
    CHECK(gpulab::first_device_difference(device.get(), host.data(), kBytes) ==
          static_cast<long long>(2 * kPiece + 5));
  }

  TEST_CASE("a run's device input written deep inside is named, with the element") {
    gpulab::RunContext ctx{{}, true, {}, {}};
    ctx.policy.input_sets = 2;
    constexpr size_t kCount = kBytes / sizeof(float);  // about 12.6 M floats
    std::vector<float> truth(kCount);
    for (size_t i = 0; i < kCount; ++i) truth[i] = static_cast<float>(i % 1000);
    gpulab::DeviceInputs<float> in(ctx, "positions", truth.data(), truth.size());
    CHECK_NOTHROW(ctx.check_inputs(0, "kernel"));
    CHECK_NOTHROW(ctx.check_inputs(1, "kernel"));
    constexpr size_t kAt = 2 * kPiece / sizeof(float) + 12345;  // in the third piece
    const float scribble = -1;
    GPULAB_CUDA(cudaMemcpy(const_cast<float*>(in.get(1)) + kAt, &scribble, sizeof scribble,
                           cudaMemcpyHostToDevice));
    CHECK_NOTHROW(ctx.check_inputs(0, "kernel"));  // another set: untouched
    try {
      ctx.check_inputs(1, "kernel");
      FAIL("a changed device input was not found");
    } catch (const std::exception& e) {
      CHECK(test::contains(e.what(), "your kernel changed its input \"positions\" (element " +
                                         std::to_string(kAt) + " first)"));
    }
    // The next sample's refresh writes it afresh from the pristine copy.
    ctx.refresh_inputs(1);
    CHECK_NOTHROW(ctx.check_inputs(1, "kernel"));
  }
}
