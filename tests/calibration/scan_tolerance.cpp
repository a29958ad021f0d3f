// scan_tolerance_calibration: how much of the float32 error bound each order of adds uses, on
// a lab's own datasets (docs/PERF.md, "Scan tolerance calibration").
//
//   build/tests/scan_tolerance_calibration --lab scan [--seeds 1-9] [--max-n N] [--K 8]
//
// For every float scan dataset of the lab (every group but timing; a public dataset with its
// own seed, a hidden one once per seed of --seeds, mixed with the dataset's name into the
// generator's seed, so the result does not depend on how the grader derives hidden seeds; the
// hidden seeds' values are as random either way), the lab's generator and
// oracle make the inputs and the fp64 expected outputs, and each order of scan_orders.h
// computes the outputs in float32. The tables give the largest error in units of the bound's
// scale, so they do not depend on K:
//   terms 1:  err / (u * sum|x|)               (the bound K u sum|x|)
//   prefix:   err / (u * sqrt(m) * sum|x|)     (the bound K u sqrt(m) sum|x|, m the number of
//                                              terms of element k's sum: k + 1, or from its
//                                              segment's head to k)
// each as "lowest-highest" over the seeds of the group's worst element; an output whose bound
// is 0 (an exclusive head) and that is not exactly 0 counts as infinite. The last column counts
// the (dataset, seed) runs that fail the prefix bound with --K.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "lab/lab_config.h"
#include "npy.h"
#include "parallel.h"
#include "registry.h"
#include "scan_orders.h"

namespace gpulab::calibration {
namespace {

namespace fs = std::filesystem;
constexpr double kUnitRoundoff = 0x1p-24;

// One float scan dataset, generated, with its oracle's outputs.
struct Data {
  std::vector<float> values;
  std::vector<uint8_t> heads;                     // empty for an unsegmented scan
  std::vector<double> expected[2], magnitude[2];  // [0] inclusive, [1] exclusive
  std::vector<double> terms;                      // m per element
};

// The lab's float outputs: the inclusive one and the exclusive one.
std::pair<std::string, std::string> float_outputs(const LabConfig& lab) {
  std::string inc, exc;
  for (const auto& [name, spec] : lab.outputs) {
    if (spec.dtype != "float32") continue;
    if (name.rfind("inclusive", 0) == 0) inc = name;
    if (name.rfind("exclusive", 0) == 0) exc = name;
  }
  if (inc.empty() || exc.empty())
    throw std::runtime_error(lab.id + " has no float32 inclusive and exclusive outputs");
  return {inc, exc};
}

bool is_float_scan(const nlohmann::json& params) {
  return params.value("dtype", std::string()) == "float32" ||
         params.value("kind", std::string()) == "scan";
}

Data make_data(const LabConfig& lab, const nlohmann::json& params, uint64_t seed,
               const fs::path& work) {
  const DatasetGenerator* gen = find_generator(lab.id);
  if (!gen) throw std::runtime_error("no generator for " + lab.id);
  const fs::path in = work / "input", out = work / "expected";
  fs::remove_all(work);
  fs::create_directories(in);
  fs::create_directories(out);
  gen->generate(params, seed, in);
  std::ofstream(in / "meta.json") << nlohmann::json{{"params", params}}.dump();
  gen->oracle(in, out);
  Data d;
  const NpyArray v = read_npy(in / "values.npy", DType::f32);
  d.values.assign(v.as<float>(), v.as<float>() + v.count());
  if (fs::exists(in / "flags.npy")) {
    const NpyArray f = read_npy(in / "flags.npy", DType::u8);
    d.heads.assign(f.as<uint8_t>(), f.as<uint8_t>() + f.count());
    d.heads[0] = 1;  // element 0 starts a segment whatever its flag says
  }
  const auto [inc, exc] = float_outputs(lab);
  const std::string names[2] = {inc, exc};
  for (int o = 0; o < 2; ++o) {
    for (auto [file, into] : {std::pair{names[o], &d.expected[o]},
                              std::pair{names[o] + "_magnitude", &d.magnitude[o]}}) {
      const NpyArray a = read_npy(out / (file + ".npy"), DType::f64);
      into->assign(a.as<double>(), a.as<double>() + a.count());
    }
  }
  d.terms.resize(d.values.size());
  size_t head = 0;
  for (size_t k = 0; k < d.values.size(); ++k) {
    if (!d.heads.empty() && d.heads[k]) head = k;
    d.terms[k] = static_cast<double>(k - head + 1);
  }
  fs::remove_all(work);
  return d;
}

// The largest error in units of u * sum|x| (terms 1) and of u * sqrt(m) * sum|x| (prefix).
struct Units {
  double terms1 = 0, prefix = 0;
  void add(const Units& o) {
    terms1 = std::max(terms1, o.terms1);
    prefix = std::max(prefix, o.prefix);
  }
};

Units measure(const std::vector<float>& got, const std::vector<double>& expected,
              const std::vector<double>& magnitude, const std::vector<double>& terms) {
  Units u;
  for (size_t k = 0; k < got.size(); ++k) {
    const double err = std::fabs(static_cast<double>(got[k]) - expected[k]);
    if (err == 0) continue;
    const double scale = kUnitRoundoff * magnitude[k];
    if (scale == 0) return {INFINITY, INFINITY};
    u.terms1 = std::max(u.terms1, err / scale);
    u.prefix = std::max(u.prefix, err / (scale * std::sqrt(terms[k])));
  }
  return u;
}

// An order of adds, or a planted bug, as the outputs it computes.
struct Variant {
  std::string name;
  std::function<void(const Data&, std::vector<float>& inc, std::vector<float>& exc)> run;
};

template <class M>
std::vector<typename M::T> elements(const Data& d, bool half) {
  std::vector<typename M::T> x(d.values.size());
  for (size_t k = 0; k < x.size(); ++k)
    x[k] = M::make(half ? to_half(d.values[k]) : d.values[k], !d.heads.empty() && d.heads[k]);
  return x;
}

template <class M>
void exclusive_from(const std::vector<typename M::T>& x, const std::vector<typename M::T>& before,
                    std::vector<float>& exc) {
  exc.resize(x.size());
  for (size_t k = 0; k < x.size(); ++k) exc[k] = M::exclusive(before[k], x[k]);
}

enum class Bug { none, half_input, exclusive_is_inclusive, inclusive_is_exclusive };

template <class M>
Variant tiled(std::string name, Order order, Bug bug = Bug::none) {
  return {std::move(name), [order, bug](const Data& d, auto& inc, auto& exc) {
            const auto x = elements<M>(d, bug == Bug::half_input);
            std::vector<typename M::T> before;
            tiled_scan<M>(x, order, before, inc);
            exclusive_from<M>(x, before, exc);
            if (bug == Bug::exclusive_is_inclusive) exc = inc;
            if (bug == Bug::inclusive_is_exclusive) inc = exc;
          }};
}

template <class M>
std::vector<Variant> variants() {
  std::vector<Variant> v;
  const Order reference;  // 256 threads x 16 items, reduce-then-scan
  for (int c : {1, 4, 16, 64, 256, 1024, 4096}) {
    Order o = reference;
    o.chunk = c;
    v.push_back(tiled<M>("reduce-then-scan, 256 threads x " + std::to_string(c) +
                             (c == 16 ? " (the reference)" : ""),
                         o));
  }
  for (int tile : {256, 512, 1024, 2048, 4096, 8192, 16384}) {
    Order o = reference;
    o.chunk = tile / o.threads;
    o.carries = Carries::chained;
    v.push_back(tiled<M>("chained, tile " + std::to_string(tile), o));
  }
  for (int tile : {256, 4096}) {
    Order o = reference;
    o.chunk = tile / o.threads;
    o.carries = Carries::lookback;
    o.window = 32;
    o.random_window = true;
    v.push_back(tiled<M>("look-back (1-32 tiles back), tile " + std::to_string(tile), o));
  }
  {
    Order o;
    o.threads = 1;
    o.chunk = 4096;
    o.carries = Carries::chained;
    v.push_back(tiled<M>("chained, one serial thread per tile of 4096", o));
  }
  v.push_back({"sequential loop", [](const Data& d, auto& inc, auto& exc) {
                 const auto x = elements<M>(d, false);
                 std::vector<typename M::T> before;
                 sequential_scan<M>(x, before, inc);
                 exclusive_from<M>(x, before, exc);
               }});
  Order dropped = reference;
  dropped.carries = Carries::dropped;
  v.push_back(tiled<M>("BUG carries dropped", dropped));
  v.push_back(tiled<M>("CHEAT fp16 input", reference, Bug::half_input));
  v.push_back(tiled<M>("BUG exclusive is inclusive", reference, Bug::exclusive_is_inclusive));
  v.push_back(tiled<M>("BUG inclusive is exclusive", reference, Bug::inclusive_is_exclusive));
  return v;
}

// The generator's seed for a hidden dataset and a seed of --seeds: distinct per dataset (FNV-1a
// over the name), as the grader's are, so that datasets of one seed share no values.
uint64_t dataset_seed(uint64_t seed, const std::string& name) {
  uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::vector<uint64_t> parse_seeds(const std::string& s) {
  std::vector<uint64_t> seeds;
  size_t at = 0;
  while (at < s.size()) {
    const size_t comma = std::min(s.find(',', at), s.size());
    const std::string item = s.substr(at, comma - at);
    const size_t dash = item.find('-');
    const uint64_t lo = std::stoull(item.substr(0, dash));
    const uint64_t hi = dash == std::string::npos ? lo : std::stoull(item.substr(dash + 1));
    for (uint64_t k = lo; k <= hi; ++k) seeds.push_back(k);
    at = comma + 1;
  }
  if (seeds.empty()) throw std::invalid_argument("--seeds names no seed");
  return seeds;
}

std::string range(const std::vector<double>& v) {
  auto fmt = [](double x) {
    char b[32];
    if (std::isinf(x)) return std::string("inf");
    std::snprintf(b, sizeof b, x < 10 ? "%.2f" : x < 1e4 ? "%.0f" : "%.1e", x);
    return std::string(b);
  };
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *lo == *hi ? fmt(*hi) : fmt(*lo) + "-" + fmt(*hi);
}

template <class M>
int run(const LabConfig& lab, const std::vector<uint64_t>& seeds, size_t max_n, double candidate_K,
        const fs::path& work) {
  const std::vector<Variant> vs = variants<M>();
  // [variant][group][seed] -> the worst over the group's datasets and both outputs.
  std::vector<std::map<std::string, std::map<uint64_t, Units>>> worst(vs.size());
  std::vector<std::map<std::string, std::pair<double, std::string>>> worst_dataset(vs.size());
  std::vector<int> runs(vs.size()), failing(vs.size());  // dataset runs, and failing ones
  std::vector<std::string> groups;
  std::mutex mu;
  for (const GroupSpec& g : lab.groups) {
    if (g.timing) continue;
    groups.push_back(g.name);
    for (const DatasetSpec& ds : g.datasets) {
      if (!is_float_scan(ds.params)) continue;
      const size_t n = ds.params.value("n", size_t{0});
      if (max_n && n > max_n) continue;
      const std::vector<uint64_t> ds_seeds =
          ds.seed ? std::vector<uint64_t>{0} : seeds;  // 0 stands for the fixed seed
      for (const uint64_t s : ds_seeds) {
        const uint64_t seed = ds.seed ? *ds.seed : dataset_seed(s, ds.name);
        std::fprintf(stderr, "%s/%s seed %llu\n", g.name.c_str(), ds.name.c_str(),
                     static_cast<unsigned long long>(seed));
        const Data d = make_data(lab, ds.params, seed, work);
        parallel_for(vs.size(), [&](size_t i) {
          std::vector<float> out[2];
          vs[i].run(d, out[0], out[1]);
          Units u;
          for (int o = 0; o < 2; ++o)
            u.add(measure(out[o], d.expected[o], d.magnitude[o], d.terms));
          std::lock_guard<std::mutex> lock(mu);
          worst[i][g.name][s].add(u);
          ++runs[i];
          if (u.prefix > candidate_K) ++failing[i];
          auto& wd = worst_dataset[i][g.name];
          if (u.prefix >= wd.first) wd = {u.prefix, ds.name};
        });
      }
    }
  }
  for (const bool prefix : {false, true}) {
    std::printf("\n%s: %s, lowest-highest over seeds of each group's worst\n\n", lab.id.c_str(),
                prefix ? "err / (u sqrt(m) sum|x|) (prefix)" : "err / (u sum|x|) (terms 1)");
    std::printf("| order |");
    for (const auto& g : groups) std::printf(" %s |", g.c_str());
    if (prefix) std::printf(" worst dataset | runs failing at K = %g |", candidate_K);
    std::printf("\n|---|");
    for (size_t k = 0; k < groups.size(); ++k) std::printf("---:|");
    std::printf("%s\n", prefix ? "---|---:|" : "");
    for (size_t i = 0; i < vs.size(); ++i) {
      std::printf("| %s |", vs[i].name.c_str());
      std::pair<double, std::string> wd{-1, ""};
      for (const auto& g : groups) {
        std::vector<double> per_seed;
        for (const auto& [s, u] : worst[i][g]) per_seed.push_back(prefix ? u.prefix : u.terms1);
        std::printf(" %s |", per_seed.empty() ? "-" : range(per_seed).c_str());
        if (worst_dataset[i].count(g) && worst_dataset[i][g].first > wd.first)
          wd = worst_dataset[i][g];
      }
      if (prefix) std::printf(" %s | %d / %d |", wd.second.c_str(), failing[i], runs[i]);
      std::printf("\n");
    }
  }
  return 0;
}

}  // namespace
}  // namespace gpulab::calibration

int main(int argc, char** argv) {
  using namespace gpulab;
  CLI::App app{"How much of the float scan error bound each order of adds uses"};
  std::string lab_id = "scan", seeds = "1-9";
  size_t max_n = 0;
  double candidate_K = 8;
  std::filesystem::path work = std::filesystem::temp_directory_path() / "gpulab-scan-calibration";
  app.add_option("--lab", lab_id, "scan or segmented-scan")
      ->check(CLI::IsMember({"scan", "segmented-scan"}));
  app.add_option("--seeds", seeds, "the hidden datasets' generator seeds, e.g. 1-9 or 3,5");
  app.add_option("--max-n", max_n, "skip datasets with more elements (0: none skipped)");
  app.add_option("--K", candidate_K,
                 "count the dataset runs that fail the prefix bound with this K");
  app.add_option("--work", work, "scratch directory for one dataset at a time");
  CLI11_PARSE(app, argc, argv);
  try {
    const LabConfig lab =
        LabConfig::load(std::filesystem::path(GPULAB_SOURCE_DIR) / "labs" / lab_id / "lab.json");
    const auto s = calibration::parse_seeds(seeds);
    return lab_id == "scan"
               ? calibration::run<calibration::Plain>(lab, s, max_n, candidate_K, work)
               : calibration::run<calibration::Segmented>(lab, s, max_n, candidate_K, work);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scan_tolerance_calibration: %s\n", e.what());
    return 1;
  }
}
