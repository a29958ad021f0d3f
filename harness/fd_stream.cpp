#include "fd_stream.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gpulab {

FdStreamBuf::int_type FdStreamBuf::underflow() {
  const ssize_t n = read_some(buf_, sizeof buf_);
  if (n <= 0) return traits_type::eof();
  setg(buf_, buf_, buf_ + n);
  return traits_type::to_int_type(buf_[0]);
}

std::streamsize FdStreamBuf::xsgetn(char* out, std::streamsize n) {
  std::streamsize done = std::min<std::streamsize>(n, egptr() - gptr());
  std::memcpy(out, gptr(), static_cast<size_t>(done));
  gbump(static_cast<int>(done));
  while (done < n) {
    const ssize_t got = read_some(out + done, static_cast<size_t>(n - done));
    if (got <= 0) break;
    done += got;
  }
  return done;
}

ssize_t FdStreamBuf::read_some(char* to, size_t n) {
  ssize_t got;
  do got = ::read(fd_, to, n);
  while (got < 0 && errno == EINTR);
  return got;
}

}  // namespace gpulab
