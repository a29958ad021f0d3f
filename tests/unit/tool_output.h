// What a tool of this machine prints (the host compiler, readelf, nm, ldconfig, the loader): for
// tests that make files with it, or compare gpulab's reading of a file with the tool's. The test
// stops where the tool fails, with what it said.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "os/process.h"

namespace test {

inline std::string tool_output(std::vector<std::string> argv) {
  gpulab::ProcessOptions o;
  o.argv = std::move(argv);
  o.output_limit = 16 << 20;
  const gpulab::ProcessResult r = gpulab::run_process(o);
  REQUIRE_MESSAGE(r.ok(), o.argv[0] << " " << r.describe() << ":\n" << r.output);
  return r.output;
}

}  // namespace test
