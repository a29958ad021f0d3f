// A timed sample's dataset folder as the store makes one, for the tests of how samples are
// handed over (grader/data/sample_stage.h, grader/run/run_channel.h): meta.json (no seed:
// dataset_store.h) and one input, atoms.npy, whose bytes are the sample's name.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace test {

inline std::filesystem::path sample_dataset(const std::filesystem::path& root,
                                            const std::string& name) {
  const std::filesystem::path input = root / name / "input";
  std::filesystem::create_directories(input);
  std::ofstream(input / "meta.json") << R"({"name": ")" << name << R"("})";
  std::ofstream(input / "atoms.npy") << name;
  return input;
}

}  // namespace test
