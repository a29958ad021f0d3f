// The .npy files a test wrote into a folder, as the outputs a run hands the grader over its
// channel (grader/data/sealed_outputs.h): each a sealed memory file named by its stem, so that the
// check and its neighbours read them exactly as they read a run's.
#pragma once

#include <cstring>
#include <filesystem>
#include <string>

#include "data/sealed_outputs.h"
#include "sealed_file.h"
#include "test_util.h"

namespace test {

inline gpulab::SealedOutputs sealed_outputs(const std::filesystem::path& dir) {
  gpulab::SealedOutputs outputs;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".npy" || !e.is_regular_file() || e.is_symlink()) continue;
    const std::string bytes = read_file(e.path());
    const std::string name = e.path().stem().string();
    const std::string refused = outputs.add(
        name,
        gpulab::sealed_memory_file(name, bytes.size(),
                                   [&](void* at) { std::memcpy(at, bytes.data(), bytes.size()); }),
        size_t{1} << 30);
    if (!refused.empty()) throw std::runtime_error(refused);
  }
  return outputs;
}

}  // namespace test
