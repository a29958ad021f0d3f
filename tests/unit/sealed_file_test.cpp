// harness/sealed_file.h: a memory file large enough to be populated a slice per thread holds
// exactly what its fill wrote, to the last byte of an uneven last slice, and is sealed.
#include "sealed_file.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

TEST_CASE("a memory file populated a slice per thread holds every byte its fill wrote, sealed") {
  // Over three 64 MiB slices, and not a whole number of pages: the last slice is uneven.
  const size_t bytes = (size_t{200} << 20) + 12345;
  const gpulab::UniqueFd file = gpulab::sealed_memory_file("slices", bytes, [&](void* at) {
    auto* b = static_cast<uint8_t*>(at);
    for (size_t i = 0; i < bytes; ++i) b[i] = static_cast<uint8_t>(i * 131 + (i >> 20));
  });
  REQUIRE(file.valid());
  std::vector<uint8_t> back(bytes);
  size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::pread(file.get(), back.data() + got, bytes - got, static_cast<off_t>(got));
    REQUIRE(n > 0);
    got += static_cast<size_t>(n);
  }
  size_t wrong = 0;
  for (size_t i = 0; i < bytes; ++i) wrong += back[i] != static_cast<uint8_t>(i * 131 + (i >> 20));
  CHECK(wrong == 0);
  CHECK(::lseek(file.get(), 0, SEEK_END) == static_cast<off_t>(bytes));
  const int seals = ::fcntl(file.get(), F_GET_SEALS);
  CHECK((seals & F_SEAL_WRITE) != 0);
  CHECK((seals & F_SEAL_SEAL) != 0);
  const uint8_t x = 1;
  CHECK(::pwrite(file.get(), &x, 1, 0) == -1);
  CHECK(errno == EPERM);
}
