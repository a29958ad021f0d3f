// histogram datasets: values to sum, or keys to count, and what an exact oracle gives.
//
// Parameters: kind ("sum" or "histogram"), n (>= 0), and
//   sum:       values: "small" (uniform in [-1000, 1000]) or "wide" (uniform over all 2^32
//              values, so the sum wraps around, which the lab defines);
//   histogram: bins (1 .. 2^24) and keys: "uniform" (every bin alike), "one-bin" (every key in
//              the same bin, drawn once: the contention case), "skewed" (bin floor(bins * u^4)
//              for u uniform in [0, 1): most keys in the low bins, the high ones often empty) or
//              "sorted" (uniform keys in ascending order: runs of one bin, as a warp sees them
//              after a sort).
// The oracle sums in int64 (reduced to 32 bits: two's complement wrap-around) and counts with
// one loop.
#include <algorithm>
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
namespace gpulab::histogram_data {
namespace {

constexpr long long kMaxBins = 1LL << 24;

struct Params {
  bool is_sum;
  size_t n;
  std::string values;  // the sum's values, or the histogram's keys
  int bins;            // the histogram's
};

Params parse(const nlohmann::json& p) {
  const std::string kind = p.value("kind", std::string());
  if (kind != "sum" && kind != "histogram")
    throw std::invalid_argument("parameter \"kind\" must be \"sum\" or \"histogram\"");
  if (!p.contains("n") || !p["n"].is_number_integer() || p["n"].get<long long>() < 0 ||
      p["n"].get<long long>() > 0x7fffffffLL)
    throw std::invalid_argument("parameter \"n\" must be an integer in [0, 2^31 - 1]");
  Params r{kind == "sum", p["n"].get<size_t>(), std::string(), 0};
  if (r.is_sum) {
    r.values = p.value("values", std::string());
    if (r.values != "small" && r.values != "wide")
      throw std::invalid_argument("parameter \"values\" must be \"small\" or \"wide\"");
    return r;
  }
  if (!p.contains("bins") || !p["bins"].is_number_integer() || p["bins"].get<long long>() < 1 ||
      p["bins"].get<long long>() > kMaxBins)
    throw std::invalid_argument("parameter \"bins\" must be an integer in [1, 2^24]");
  r.bins = p["bins"].get<int>();
  r.values = p.value("keys", std::string());
  if (r.values != "uniform" && r.values != "one-bin" && r.values != "skewed" &&
      r.values != "sorted")
    throw std::invalid_argument(
        "parameter \"keys\" must be \"uniform\", \"one-bin\", \"skewed\" or \"sorted\"");
  return r;
}

class HistogramGenerator final : public ParsedGenerator<Params, parse> {
 public:
  int version() const override { return 1; }

  void generate_from(const Params& p, Rng& rng, const std::filesystem::path& dir) const override {
    std::vector<int32_t> v(p.n);
    if (p.is_sum) {
      for (auto& x : v)
        x = p.values == "wide" ? static_cast<int32_t>(static_cast<uint32_t>(rng.next()))
                               : static_cast<int32_t>(rng.next() % 2001) - 1000;
      write_npy(dir / "values.npy", {p.n}, v.data());
      return;
    }
    const auto bins = static_cast<uint64_t>(p.bins);
    if (p.values == "one-bin") {
      std::fill(v.begin(), v.end(), static_cast<int32_t>(rng.next() % bins));
    } else if (p.values == "skewed") {
      for (auto& x : v) {
        const double u = rng.uniform();
        x = static_cast<int32_t>(std::min<double>(std::floor(p.bins * u * u * u * u), p.bins - 1));
      }
    } else {
      for (auto& x : v) x = static_cast<int32_t>(rng.next() % bins);
      if (p.values == "sorted") std::sort(v.begin(), v.end());
    }
    write_npy(dir / "keys.npy", {p.n}, v.data());
  }

  void oracle_from(const Params& p, const std::filesystem::path& input_dir,
                   const std::filesystem::path& expected_dir) const override {
    if (p.is_sum) {
      const NpyArray in = read_npy(input_dir / "values.npy", DType::i32);
      int64_t sum = 0;
      for (size_t k = 0; k < in.count(); ++k) sum += in.as<int32_t>()[k];
      const int32_t wrapped = static_cast<int32_t>(static_cast<uint32_t>(sum));
      write_npy(expected_dir / "sum.npy", {1}, &wrapped);
      return;
    }
    const NpyArray keys = read_npy(input_dir / "keys.npy", DType::i32);
    std::vector<int32_t> counts(static_cast<size_t>(p.bins), 0);
    for (size_t k = 0; k < keys.count(); ++k) {
      const int32_t key = keys.as<int32_t>()[k];
      if (key < 0 || key >= p.bins)
        throw std::invalid_argument("keys.npy: key " + std::to_string(key) + " at [" +
                                    std::to_string(k) + "] is outside [0, bins)");
      ++counts[static_cast<size_t>(key)];
    }
    write_npy(expected_dir / "counts.npy", {counts.size()}, counts.data());
  }
};

}  // namespace
}  // namespace gpulab::histogram_data

GPULAB_DATASETS("histogram", gpulab::histogram_data::HistogramGenerator);
