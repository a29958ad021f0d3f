#include "dataset.h"

#include <fstream>

namespace gpulab {

Dataset Dataset::open(const std::filesystem::path& dir) {
  Dataset d;
  d.dir = dir;
  const auto meta_path = dir / "meta.json";
  std::ifstream in(meta_path);
  if (!in) throw std::runtime_error(meta_path.string() + ": cannot open the dataset's meta.json");
  try {
    d.meta = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(meta_path.string() + ": not valid JSON: " + e.what());
  }
  if (!d.meta.is_object() || !d.meta.contains("params") || !d.meta["params"].is_object())
    throw std::runtime_error(meta_path.string() + ": has no \"params\" object");
  return d;
}

// Mapped rather than copied (npy.h): a dataset folder is the grader's, trusted (a runner sees
// it read-only), and its inputs run to gigabytes.
NpyArray Dataset::input(const std::string& name, DType dtype) const {
  return map_npy(dir / (name + ".npy"), dtype);
}

long long Dataset::int_param(const std::string& key) const {
  const auto& p = params();
  if (!p.contains(key) || !p[key].is_number_integer())
    throw std::runtime_error((dir / "meta.json").string() + ": parameter \"" + key +
                             "\" is missing or not an integer");
  return p[key].get<long long>();
}

double Dataset::num_param(const std::string& key) const {
  const auto& p = params();
  if (!p.contains(key) || !p[key].is_number())
    throw std::runtime_error((dir / "meta.json").string() + ": parameter \"" + key +
                             "\" is missing or not a number");
  return p[key].get<double>();
}

}  // namespace gpulab
