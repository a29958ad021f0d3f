// Every runtime copy and set checks its device ranges as a GPU does: a range that runs past the
// end of its allocation (or symbol) is refused with cudaErrorInvalidValue, copies nothing, and
// is reported at the caller's line. And fresh device memory holds the poison word, not zeros.
#include <cstdint>
#include <cstring>
#include <string>

#include "poison.h"
#include "sim_test.h"

namespace {

float table[8];
gpulab_sim::symbol gpulab_sim_sym_table(&table, sizeof(table), "table");

using gpulab_sim::finding_kind;

// The one bad_copy finding so far: at this file's `line`, its message naming `words`.
void check_one_bad_copy(int line, const std::string& api, const std::string& words) {
  const auto f = found(finding_kind::bad_copy);
  REQUIRE(f.size() == 1);
  CHECK(f[0].error);
  CHECK(f[0].file == __FILE__);
  CHECK(f[0].line == line);
  CHECK_MESSAGE(f[0].message.find("bad " + api) == 0, f[0].message);
  CHECK_MESSAGE(f[0].message.find(words) != std::string::npos, f[0].message);
  CHECK_MESSAGE(f[0].message.find("invalid argument") != std::string::npos, f[0].message);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);  // not sticky, as on a GPU
  gpulab_sim::clear_findings();
}

// Every word of h (a host copy of device memory) is the poison word.
bool all_poison(const std::vector<std::uint32_t>& h) {
  return std::all_of(h.begin(), h.end(),
                     [](std::uint32_t w) { return w == gpulab::kFreshDeviceBits; });
}

void copy_k(const float* in, float* out) {
  WR(out[threadIdx.x]) = RD(in[threadIdx.x]);
}

void sum_scratch_k(const int* scratch, int* out) {
  WR(out[threadIdx.x]) = RD(scratch[threadIdx.x]) + 1;
}

}  // namespace

TEST_SUITE("runtime_api") {
  TEST_CASE("cudaMemcpy of every kind refuses a range past its allocation and names the line") {
    fresh();
    int* a = nullptr;
    int* b = nullptr;
    REQUIRE(cudaMalloc(&a, 16 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&b, 16 * sizeof(int)) == cudaSuccess);
    std::vector<int> h(32, 5);
    REQUIRE(cudaMemcpy(a, h.data(), 16 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(b, a, 16 * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess);
    CHECK(found(finding_kind::bad_copy).empty());

    CHECK(cudaMemcpy(a + 1, h.data(), 16 * sizeof(int), cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpy (host to device)", "destination, 64 bytes at 0x");
    CHECK(cudaMemcpy(h.data(), a, 17 * sizeof(int), cudaMemcpyDeviceToHost) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpy (device to host)",
                       "start at offset 0 in a 64-byte cudaMalloc allocation");
    // Device to device: the source one element too long, then the destination.
    CHECK(cudaMemcpy(b, a + 1, 16 * sizeof(int), cudaMemcpyDeviceToDevice) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpy (device to device)",
                       "but run 4 bytes past its end");
    CHECK(cudaMemcpy(b + 2, a, 16 * sizeof(int), cudaMemcpyDeviceToDevice) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpy (device to device)", "its destination");
    // cudaMemcpyDefault tells the kinds apart by the pointers, then checks the ranges alike.
    CHECK(cudaMemcpy(b, a + 1, 16 * sizeof(int), cudaMemcpyDefault) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 1, "cudaMemcpy (device to device)", "its source");
    CHECK(cudaMemcpy(h.data(), a + 4, 16 * sizeof(int), cudaMemcpyDefault) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpy (device to host)", "run 16 bytes past its end");
    CHECK(cudaMemcpyAsync(a, h.data(), 20 * sizeof(int), cudaMemcpyHostToDevice, 0) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpy (host to device)", "run 16 bytes past its end");
    // A refused copy copies nothing.
    std::vector<int> before = to_host(b, 16);
    h.assign(32, 9);
    CHECK(cudaMemcpy(b, h.data(), 17 * sizeof(int), cudaMemcpyHostToDevice) ==
          cudaErrorInvalidValue);
    CHECK(to_host(b, 16) == before);
    gpulab_sim::clear_findings();
    cudaGetLastError();
    // A freed allocation is named as such.
    REQUIRE(cudaFree(a) == cudaSuccess);
    CHECK(cudaMemcpy(h.data(), a, sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 1, "cudaMemcpy (device to host)", "that was freed");
    cudaFree(b);
  }

  TEST_CASE("cudaMemset and cudaMemsetAsync refuse a range past the allocation") {
    fresh();
    char* d = nullptr;
    REQUIRE(cudaMalloc(&d, 100) == cudaSuccess);
    CHECK(cudaMemset(d, 0, 100) == cudaSuccess);
    CHECK(cudaMemset(d + 99, 1, 2) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 1, "cudaMemset", "run 1 byte past its end");
    CHECK(cudaMemsetAsync(d, 1, 101, 0) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 1, "cudaMemset", "a 100-byte cudaMalloc allocation");
    CHECK(to_host(d, 100) == std::vector<char>(100, 0));  // nothing was set
    cudaFree(d);
  }

  TEST_CASE("symbol copies: the symbol's bounds, and a device side's bounds too") {
    fresh();
    const float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float* d = to_device(std::vector<float>(host, host + 8));
    float* e = nullptr;
    REQUIRE(cudaMalloc(&e, 8 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemcpyToSymbol(table, d, sizeof(table), 0, cudaMemcpyDeviceToDevice) ==
            cudaSuccess);
    CHECK(table[7] == 8);
    REQUIRE(cudaMemcpyFromSymbol(e, table, 4 * sizeof(float), 4 * sizeof(float),
                                 cudaMemcpyDeviceToDevice) == cudaSuccess);
    CHECK(to_host(e, 4)[0] == 5);
    LAUNCH(copy_k, 1, 4, 0, e, d);  // the bytes copied from the symbol count as written
    CHECK(found(finding_kind::uninitialised_read).empty());
    CHECK(found(finding_kind::bad_copy).empty());

    // Device to device, the source past its allocation: what a GPU refuses as "invalid argument".
    table[0] = -1;
    CHECK(cudaMemcpyToSymbol(table, d + 1, sizeof(table), 0, cudaMemcpyDeviceToDevice) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpyToSymbol (device to device)",
                       "source, 32 bytes at 0x");
    CHECK(table[0] == -1);  // nothing copied
    CHECK(cudaMemcpyToSymbol(table, d + 4, 8 * sizeof(float), 0, cudaMemcpyDefault) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpyToSymbol (device to device)",
                       "but run 16 bytes past its end");
    CHECK(cudaMemcpyToSymbolAsync(table, d + 2, 8 * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                  0) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpyToSymbol (device to device)", "its source");
    // From the symbol to device memory past its end, at an offset.
    CHECK(cudaMemcpyFromSymbol(e + 6, table, 4 * sizeof(float), 4 * sizeof(float),
                               cudaMemcpyDeviceToDevice) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpyFromSymbol (device to device)",
                       "its destination, 16 bytes at 0x");
    CHECK(cudaMemcpyFromSymbolAsync(e + 5, table, 4 * sizeof(float), 0, cudaMemcpyDefault, 0) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpyFromSymbol (device to device)", "its destination");
    // The symbol's own bounds, with an offset, from the host.
    CHECK(cudaMemcpyToSymbol(table, host, 2 * sizeof(float), 7 * sizeof(float)) ==
          cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 2, "cudaMemcpyToSymbol", "do not fit in the 32-byte symbol");
    float back[8];
    CHECK(cudaMemcpyFromSymbol(back, table, sizeof(table) + 1) == cudaErrorInvalidValue);
    check_one_bad_copy(__LINE__ - 1, "cudaMemcpyFromSymbol", "do not fit in the 32-byte symbol");
    // A host source is the host's business, as on a GPU: not checked.
    CHECK(cudaMemcpyToSymbol(table, host, sizeof(table)) == cudaSuccess);
    CHECK(found(finding_kind::bad_copy).empty());
    cudaFree(d);
    cudaFree(e);
  }

  TEST_CASE("fresh device memory holds the poison word, not zeros, however it was allocated") {
    fresh();
    constexpr size_t n = 1000;  // not a multiple of 8 bytes' worth of words: the tail too
    std::uint32_t* m = nullptr;
    std::uint32_t* s = nullptr;
    std::uint32_t* u = nullptr;
    REQUIRE(cudaMalloc(&m, n * sizeof(std::uint32_t) + 3) == cudaSuccess);
    REQUIRE(cudaMallocAsync(&s, n * sizeof(std::uint32_t), 0) == cudaSuccess);
    REQUIRE(cudaMallocManaged(&u, n * sizeof(std::uint32_t)) == cudaSuccess);
    CHECK(all_poison(to_host(m, n)));
    CHECK(all_poison(to_host(s, n)));
    CHECK(all_poison(std::vector<std::uint32_t>(u, u + n)));
    unsigned char tail[3];
    REQUIRE(cudaMemcpy(tail, reinterpret_cast<unsigned char*>(m) + n * 4, 3,
                       cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(std::memcmp(tail, &gpulab::kFreshDeviceBits, 3) == 0);
    // As floats a NaN, as ints far from any small count; and not the output poison, so that a
    // value computed from it is not taken for an output nothing wrote.
    float f;
    std::memcpy(&f, &gpulab::kFreshDeviceBits, sizeof f);
    CHECK(f != f);
    CHECK_FALSE(gpulab::is_poison(f + 1.0f));
    CHECK(static_cast<std::int32_t>(gpulab::kFreshDeviceBits) > 2000000000);
    // cudaMemset still sets: code that relies on it works.
    REQUIRE(cudaMemset(m, 0, n * sizeof(std::uint32_t)) == cudaSuccess);
    CHECK(to_host(m, n) == std::vector<std::uint32_t>(n, 0));
    // Memory freed and allocated again is poisoned again, not left as the last user wrote it.
    REQUIRE(cudaFree(m) == cudaSuccess);
    REQUIRE(cudaMalloc(&m, n * sizeof(std::uint32_t)) == cudaSuccess);
    CHECK(all_poison(to_host(m, n)));
    // Host (pinned) memory is the host's own: left as the system gives it.
    void* pinned = nullptr;
    REQUIRE(cudaMallocHost(&pinned, 64) == cudaSuccess);
    CHECK(cudaFreeHost(pinned) == cudaSuccess);
    cudaFree(m);
    cudaFreeAsync(s, 0);
    cudaFree(u);
  }

  TEST_CASE("a kernel that reads scratch nothing wrote gets poison, and a warning") {
    fresh();
    int* scratch = nullptr;
    int* out = nullptr;
    REQUIRE(cudaMalloc(&scratch, 32 * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH(sum_scratch_k, 1, 32, 0, scratch, out);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const auto got = to_host(out, 32);
    CHECK(got[0] == static_cast<int>(gpulab::kFreshDeviceBits) + 1);  // not the 1 zeros would give
    CHECK(found(finding_kind::uninitialised_read).size() == 1);
    // The clean twin: the scratch set first.
    gpulab_sim::clear_findings();
    REQUIRE(cudaMemset(scratch, 0, 32 * sizeof(int)) == cudaSuccess);
    LAUNCH(sum_scratch_k, 1, 32, 0, scratch, out);
    CHECK(to_host(out, 32) == std::vector<int>(32, 1));
    CHECK(gpulab_sim::findings().empty());
    cudaFree(scratch);
    cudaFree(out);
  }
}
