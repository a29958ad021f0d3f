// scan datasets: n values and the prefix sums an exact oracle gives.
//
// Parameters: n (>= 1), dtype ("int32" or "float32"), values:
//   int32:   "small" (uniform in [-1000, 1000]) or "wide" (uniform over all 2^32 values, so the
//            sums wrap around, which the lab defines);
//   float32: "zero-mean" (uniform in [-1, 1): the sums cancel) or "positive" (uniform in
//            (0, 1]: the sums grow, and so does a rounding error that a lower precision makes).
// The oracle sums in int64 (reduced to 32 bits: two's complement wrap-around) or in fp64, and for
// float32 writes beside each scan the sum of |values| it covers, the scale of the error bound.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "npy.h"
#include "parsed_generator.h"
#include "rng.h"

// Its own namespace: the student's build compiles every lab's generator as one file
// (GPULAB_UNITY), where the labs' Params and parse() would otherwise meet.
namespace gpulab::scan_data {
namespace {

struct Params {
  size_t n;
  bool is_int;
  std::string values;
};

Params parse(const nlohmann::json& p) {
  if (!p.contains("n") || !p["n"].is_number_integer() || p["n"].get<long long>() < 1 ||
      p["n"].get<long long>() > 0x7fffffffLL)
    throw std::invalid_argument("parameter \"n\" must be an integer in [1, 2^31 - 1]");
  const std::string dtype = p.value("dtype", std::string());
  if (dtype != "int32" && dtype != "float32")
    throw std::invalid_argument("parameter \"dtype\" must be \"int32\" or \"float32\"");
  Params r{p["n"].get<size_t>(), dtype == "int32", p.value("values", std::string())};
  const bool known = r.is_int ? (r.values == "small" || r.values == "wide")
                              : (r.values == "zero-mean" || r.values == "positive");
  if (!known)
    throw std::invalid_argument(r.is_int ? "parameter \"values\" must be \"small\" or \"wide\""
                                         : "parameter \"values\" must be \"zero-mean\" or "
                                           "\"positive\"");
  return r;
}

class ScanGenerator final : public ParsedGenerator<Params, parse> {
 public:
  int version() const override { return 1; }

  void generate_from(const Params& p, Rng& rng, const std::filesystem::path& dir) const override {
    if (p.is_int) {
      std::vector<int32_t> v(p.n);
      for (auto& x : v)
        x = p.values == "wide" ? static_cast<int32_t>(static_cast<uint32_t>(rng.next()))
                               : static_cast<int32_t>(rng.next() % 2001) - 1000;
      write_npy(dir / "values.npy", {p.n}, v.data());
    } else {
      std::vector<float> v(p.n);
      for (auto& x : v)
        x = p.values == "positive" ? static_cast<float>(1.0 - rng.uniform())
                                   : static_cast<float>(rng.uniform(-1.0, 1.0));
      write_npy(dir / "values.npy", {p.n}, v.data());
    }
  }

  void oracle_from(const Params& p, const std::filesystem::path& input_dir,
                   const std::filesystem::path& expected_dir) const override {
    if (p.is_int) {
      const NpyArray in = read_npy(input_dir / "values.npy", DType::i32);
      const int32_t* x = in.as<int32_t>();
      std::vector<int32_t> inclusive(in.count()), exclusive(in.count());
      int64_t sum = 0;
      for (size_t k = 0; k < in.count(); ++k) {
        exclusive[k] = wrap(sum);
        sum += x[k];
        inclusive[k] = wrap(sum);
      }
      write_npy(expected_dir / "inclusive.npy", in.shape, inclusive.data());
      write_npy(expected_dir / "exclusive.npy", in.shape, exclusive.data());
    } else {
      const NpyArray in = read_npy(input_dir / "values.npy", DType::f32);
      const float* x = in.as<float>();
      const size_t n = in.count();
      std::vector<double> inclusive(n), exclusive(n), inclusive_mag(n), exclusive_mag(n);
      double sum = 0, mag = 0;
      for (size_t k = 0; k < n; ++k) {
        exclusive[k] = sum;
        exclusive_mag[k] = mag;
        sum += x[k];
        mag += std::abs(static_cast<double>(x[k]));
        inclusive[k] = sum;
        inclusive_mag[k] = mag;
      }
      write_npy(expected_dir / "inclusive_float.npy", in.shape, inclusive.data());
      write_npy(expected_dir / "inclusive_float_magnitude.npy", in.shape, inclusive_mag.data());
      write_npy(expected_dir / "exclusive_float.npy", in.shape, exclusive.data());
      write_npy(expected_dir / "exclusive_float_magnitude.npy", in.shape, exclusive_mag.data());
    }
  }

 private:
  // The low 32 bits, as two's complement: what 32-bit adds give, whatever the order.
  static int32_t wrap(int64_t s) { return static_cast<int32_t>(static_cast<uint32_t>(s)); }
};

}  // namespace
}  // namespace gpulab::scan_data

GPULAB_DATASETS("scan", gpulab::scan_data::ScanGenerator);
