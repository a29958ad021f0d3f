#include "files/random_bytes.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gpulab {

void random_bytes(void* out, size_t n) {
  auto* at = static_cast<unsigned char*>(out);
  while (n > 0) {
    const ssize_t got = getrandom(at, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    at += got;
    n -= static_cast<size_t>(got);
  }
}

std::string random_hex(size_t bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::vector<unsigned char> raw(bytes);
  random_bytes(raw.data(), raw.size());
  std::string hex;
  hex.reserve(2 * bytes);
  for (const unsigned char b : raw) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  return hex;
}

}  // namespace gpulab
