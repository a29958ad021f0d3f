// The dataset generators' registry: each lab's generator and fp64 oracle (datasets/<id>/)
// registers itself here with GPULAB_DATASETS, and the grader finds it by the lab's id, so the
// grader has no switch over labs and datasets/ includes nothing of the grader's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace gpulab {

class DatasetGenerator {
 public:
  virtual ~DatasetGenerator() = default;
  // Bumped whenever the generator's output for the same (params, seed) changes; part of the
  // cache key, so stale datasets are regenerated.
  virtual int version() const = 0;
  // Writes the input arrays (.npy) into input_dir; the caller writes meta.json. Throws
  // std::invalid_argument naming the parameter when params are unusable.
  virtual void generate(const nlohmann::json& params, uint64_t seed,
                        const std::filesystem::path& input_dir) const = 0;
  // Reads the inputs and writes the expected outputs into expected_dir as .npy: float64 for a
  // float32 output, with "<output>_magnitude.npy" beside it; int32 for an int32 output (compared
  // exactly).
  virtual void oracle(const std::filesystem::path& input_dir,
                      const std::filesystem::path& expected_dir) const = 0;
};

bool register_generator(const std::string& lab, std::unique_ptr<DatasetGenerator> generator);
const DatasetGenerator* find_generator(const std::string& lab);

}  // namespace gpulab

// A name of its own for each registration (__COUNTER__): the student's build compiles every
// lab's generator as one file (GPULAB_UNITY).
#define GPULAB_DATASETS_NAME2(a, b) a##b
#define GPULAB_DATASETS_NAME(a, b) GPULAB_DATASETS_NAME2(a, b)
#define GPULAB_DATASETS(LAB, TYPE)                                                    \
  static const bool GPULAB_DATASETS_NAME(gpulab_registered_generator_, __COUNTER__) = \
      ::gpulab::register_generator(LAB, std::make_unique<TYPE>())
