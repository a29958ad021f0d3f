// The usual shape of a dataset generator: its parameters parse into a struct (Parse throws
// std::invalid_argument naming the parameter), generate() draws from one Rng seeded with the
// dataset's seed, and the oracle reads the same parameters back from the dataset's meta.json.
// Such a generator derives from ParsedGenerator<Params, parse> and writes generate_from() and
// oracle_from(); segmented-scan, whose two kinds of datasets are parsed and drawn apart, does not.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "dataset.h"
#include "registry.h"
#include "rng.h"

namespace gpulab {

template <class Params, Params (*Parse)(const nlohmann::json&)>
class ParsedGenerator : public DatasetGenerator {
 public:
  void generate(const nlohmann::json& params, uint64_t seed,
                const std::filesystem::path& dir) const final {
    const Params p = Parse(params);
    Rng rng(seed);
    generate_from(p, rng, dir);
  }
  void oracle(const std::filesystem::path& input_dir,
              const std::filesystem::path& expected_dir) const final {
    oracle_from(Parse(Dataset::open(input_dir).params()), input_dir, expected_dir);
  }

 protected:
  // Writes the input arrays (.npy) into dir.
  virtual void generate_from(const Params& p, Rng& rng, const std::filesystem::path& dir) const = 0;
  // Reads the inputs and writes the expected outputs, as DatasetGenerator::oracle.
  virtual void oracle_from(const Params& p, const std::filesystem::path& input_dir,
                           const std::filesystem::path& expected_dir) const = 0;
};

}  // namespace gpulab
