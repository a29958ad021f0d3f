// A std::istream's buffer over a file descriptor already open: a file checked on its open
// descriptor is then read through that same descriptor, so nothing swapped in at its path in
// between is read (a run's outputs: grader/run/run_output.h; a mapped array's header: npy.h).
#pragma once

#include <sys/types.h>

#include <streambuf>

namespace gpulab {

class FdStreamBuf : public std::streambuf {
 public:
  explicit FdStreamBuf(int fd) : fd_(fd) {}  // not owned: the caller closes it

 protected:
  int_type underflow() override;
  // Large reads (an output of a gigabyte) go straight into the caller's memory.
  std::streamsize xsgetn(char* out, std::streamsize n) override;

 private:
  // A read error reads as the end of the file, as in an ifstream.
  ssize_t read_some(char* to, size_t n);

  int fd_;
  char buf_[1 << 16];
};

}  // namespace gpulab
