// CPU time, user and system together, as getrusage counts it: RUSAGE_SELF for this process's
// threads, RUSAGE_CHILDREN for its children that have ended and been waited for (and theirs).
#pragma once

#include <sys/resource.h>

namespace gpulab {

inline double rusage_cpu_s(int who) {
  rusage u{};
  getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

}  // namespace gpulab
