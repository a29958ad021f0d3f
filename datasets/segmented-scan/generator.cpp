// segmented-scan datasets: values with head flags for the scans, CSR matrices for SpMV, and the
// fp64 oracle.
//
// Parameters. `kind` is "scan" or "spmv".
//
// kind "scan" (inputs values.npy float32 [n], flags.npy uint8 [n]):
//   n            elements, >= 1
//   segments     "skewed": lengths log-uniform in [min_len, max_len] (default 1 and 100000), so
//                most segments are short while most elements sit in long ones, many tiles wide;
//                "uniform": lengths uniform in [min_len, max_len]; "fixed": the lengths of the
//                list `lengths`, cycled, after a first segment of `offset` elements (default 0:
//                none), to put the heads on or off block boundaries; "single": one segment;
//                "ones": every segment of length 1. The last segment ends at n.
//   values       "zero-mean": uniform in [-1, 1); "positive": uniform in [0, 1) (no
//                cancellation: the partial sums grow, and with them the rounding error)
//   flag0        flags[0] (default 1): element 0 starts a segment whatever it says
//
// kind "spmv" (inputs row_ptr.npy int32 [n_rows + 1], col_idx.npy int32 [nnz], values.npy
// float32 [nnz], x.npy float32 [n_cols]):
//   n_rows, n_cols   >= 1
//   rows         "skewed": row lengths log-uniform in [min_len, max_len] (default 1 and 1000),
//                "uniform": uniform in [min_len, max_len]; capped at n_cols
//   empty_fraction   each row is made empty with this probability (default 0)
//   empty_first, empty_last   the first / last row is empty (default false)
//   empty_range  [a, b): rows a..b-1 are empty (a long run of empty rows)
//   dense_rows   this many rows (at random, never a forced-empty one) hold every column
//   band         0 (default): a row's columns anywhere; else within a window of `band` columns
//                that moves down the diagonal (row r's window starts near r * n_cols / n_rows),
//                so that neighbouring rows share the x they gather
//   values       "zero-mean" or "positive", for the matrix and for x
// Each row's columns are distinct and ascending.
//
// The oracle, in fp64 from the float32 inputs. Scans: inclusive[k] = the sum of the segment's
// elements up to and including k, exclusive[k] = the same before k (0 at a head), and beside each
// <output>_magnitude = the same sums of |x_i|: the grader's bound is K·u·√m·magnitude, m counted
// from the segment's head by the grader (lab.json, "terms": "prefix", "heads": "flags"). SpMV: y[r]
// = sum of values[k] * x[col_idx[k]] over row r (0 for an empty row) and y_magnitude[r] = sum of
// |values[k] * x[col_idx[k]]| (0 for an empty row: its 0 must be exact).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "npy.h"
#include "parallel.h"
#include "registry.h"
#include "rng.h"

// Its own namespace: the student's build compiles every lab's generator as one file
// (GPULAB_UNITY), where the labs' Params and parse() would otherwise meet.
namespace gpulab::segmented_scan_data {
namespace {

class Params {
 public:
  explicit Params(const nlohmann::json& p) : p_(p) {}
  bool has(const char* key) const { return p_.contains(key); }

  long long integer(const char* key, long long lo, long long hi, long long fallback) const {
    if (!p_.contains(key)) {
      if (fallback >= lo) return fallback;
      fail(key, "is required");
    }
    const auto& v = p_[key];
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      fail(key, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v.get<long long>();
  }
  double number(const char* key, double lo, double hi, double fallback) const {
    if (!p_.contains(key)) return fallback;
    const auto& v = p_[key];
    if (!v.is_number() || !(v.get<double>() >= lo) || !(v.get<double>() <= hi))
      fail(key, "must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v.get<double>();
  }
  bool boolean(const char* key) const {
    if (!p_.contains(key)) return false;
    if (!p_[key].is_boolean()) fail(key, "must be true or false");
    return p_[key].get<bool>();
  }
  std::string choice(const char* key, const std::vector<std::string>& allowed,
                     const std::string& fallback) const {
    std::string v = fallback;  // "" when the parameter is required
    if (p_.contains(key)) v = p_[key].is_string() ? p_[key].get<std::string>() : std::string();
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "\"" : ", \"") + a + "\"";
      fail(key, "must be one of " + list);
    }
    return v;
  }
  std::vector<long long> integers(const char* key, long long lo, long long hi) const {
    if (!p_.contains(key) || !p_[key].is_array() || p_[key].empty())
      fail(key, "must be a non-empty list of integers");
    std::vector<long long> out;
    for (const auto& v : p_[key]) {
      if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
        fail(key, "must hold integers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      out.push_back(v.get<long long>());
    }
    return out;
  }

 private:
  [[noreturn]] static void fail(const char* key, const std::string& what) {
    throw std::invalid_argument(std::string("parameter \"") + key + "\" " + what);
  }
  const nlohmann::json& p_;
};

constexpr long long kMaxInt = 0x7fffffff;

float draw_value(Rng& rng, bool positive) {
  return static_cast<float>(positive ? rng.uniform() : rng.uniform(-1.0, 1.0));
}

// A length log-uniform in [lo, hi] (lo >= 1).
long long log_uniform(Rng& rng, long long lo, long long hi) {
  const double a = std::log(static_cast<double>(lo)), b = std::log(static_cast<double>(hi) + 1);
  return std::clamp(static_cast<long long>(std::exp(rng.uniform(a, b))), lo, hi);
}

// An independent, deterministic stream per item (a row), so items can be drawn in parallel.
Rng item_rng(uint64_t seed, uint64_t item) {
  Rng mix(seed ^ (0x9e3779b97f4a7c15ull * (item + 1)));
  return Rng(mix.next());
}

void generate_scan(const Params& p, uint64_t seed, const std::filesystem::path& dir) {
  const long long n = p.integer("n", 1, kMaxInt, -1);
  const std::string segments =
      p.choice("segments", {"skewed", "uniform", "fixed", "single", "ones"}, "skewed");
  const bool positive = p.choice("values", {"zero-mean", "positive"}, "zero-mean") == "positive";
  const long long flag0 = p.integer("flag0", 0, 1, 1);
  Rng rng(seed);

  std::vector<uint8_t> flags(static_cast<size_t>(n), 0);
  if (segments == "ones") {
    std::fill(flags.begin(), flags.end(), 1);
  } else if (segments == "skewed" || segments == "uniform") {
    const long long lo = p.integer("min_len", 1, kMaxInt, 1);
    const long long hi = p.integer("max_len", lo, kMaxInt, std::max<long long>(lo, 100000));
    for (long long at = 0; at < n;) {
      flags[static_cast<size_t>(at)] = 1;
      at += segments == "skewed"
                ? log_uniform(rng, lo, hi)
                : lo + static_cast<long long>(rng.next() % static_cast<uint64_t>(hi - lo + 1));
    }
  } else if (segments == "fixed") {
    const std::vector<long long> lengths = p.integers("lengths", 1, kMaxInt);
    const long long offset = p.integer("offset", 0, kMaxInt, 0);
    long long at = 0;
    if (offset > 0) {
      flags[0] = 1;
      at = offset;
    }
    for (size_t i = 0; at < n; i = (i + 1) % lengths.size()) {
      flags[static_cast<size_t>(at)] = 1;
      at += lengths[i];
    }
  }
  flags[0] = static_cast<uint8_t>(flag0);

  std::vector<float> values(static_cast<size_t>(n));
  for (auto& v : values) v = draw_value(rng, positive);
  write_npy(dir / "values.npy", {values.size()}, values.data());
  write_npy(dir / "flags.npy", {flags.size()}, flags.data());
}

void generate_spmv(const Params& p, uint64_t seed, const std::filesystem::path& dir) {
  const long long n_rows = p.integer("n_rows", 1, kMaxInt - 1, -1);
  const long long n_cols = p.integer("n_cols", 1, kMaxInt, -1);
  const bool skewed = p.choice("rows", {"skewed", "uniform"}, "skewed") == "skewed";
  const long long lo = p.integer("min_len", skewed ? 1 : 0, kMaxInt, 1);
  const long long hi = p.integer("max_len", lo, kMaxInt, std::max<long long>(lo, 1000));
  const double empty_fraction = p.number("empty_fraction", 0, 1, 0);
  const bool empty_first = p.boolean("empty_first"), empty_last = p.boolean("empty_last");
  long long empty_a = 0, empty_b = 0;
  if (p.has("empty_range")) {
    const std::vector<long long> r = p.integers("empty_range", 0, n_rows);
    if (r.size() != 2 || r[0] > r[1])
      throw std::invalid_argument("parameter \"empty_range\" must be [a, b] with a <= b");
    empty_a = r[0];
    empty_b = r[1];
  }
  const long long dense_rows = p.integer("dense_rows", 0, n_rows, 0);
  const long long band = p.integer("band", 0, kMaxInt, 0);
  const bool positive = p.choice("values", {"zero-mean", "positive"}, "zero-mean") == "positive";
  Rng rng(seed);

  // Row lengths: drawn, then the empty rows, then the dense ones.
  std::vector<long long> len(static_cast<size_t>(n_rows));
  std::vector<char> forced_empty(static_cast<size_t>(n_rows), 0);
  for (long long r = 0; r < n_rows; ++r) {
    long long l =
        skewed ? log_uniform(rng, lo, hi)
               : lo + static_cast<long long>(rng.next() % static_cast<uint64_t>(hi - lo + 1));
    if (rng.uniform() < empty_fraction) l = 0;
    const bool forced =
        (r == 0 && empty_first) || (r == n_rows - 1 && empty_last) || (r >= empty_a && r < empty_b);
    if (forced) l = 0;
    forced_empty[static_cast<size_t>(r)] = forced;
    len[static_cast<size_t>(r)] = std::min(l, n_cols);
  }
  std::vector<long long> candidates;
  for (long long r = 0; r < n_rows; ++r)
    if (!forced_empty[static_cast<size_t>(r)]) candidates.push_back(r);
  for (long long d = 0; d < dense_rows && !candidates.empty(); ++d) {
    const size_t pick = static_cast<size_t>(rng.next() % candidates.size());
    len[static_cast<size_t>(candidates[pick])] = n_cols;
    candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(pick));
  }

  std::vector<int> row_ptr(static_cast<size_t>(n_rows) + 1, 0);
  long long nnz = 0;
  for (long long r = 0; r < n_rows; ++r) {
    nnz += len[static_cast<size_t>(r)];
    if (nnz > kMaxInt) throw std::invalid_argument("the matrix has 2^31 or more nonzeros");
    row_ptr[static_cast<size_t>(r) + 1] = static_cast<int>(nnz);
  }

  // Each row's columns (distinct, ascending) and values, from the row's own stream.
  std::vector<int> col_idx(static_cast<size_t>(nnz));
  std::vector<float> values(static_cast<size_t>(nnz));
  const uint64_t row_seed = rng.next();
  parallel_for(static_cast<size_t>((n_rows + 255) / 256), [&](size_t chunk) {
    std::vector<long long> picked;
    const long long r_end = std::min<long long>(n_rows, static_cast<long long>(chunk + 1) * 256);
    for (long long r = static_cast<long long>(chunk) * 256; r < r_end; ++r) {
      const long long l = len[static_cast<size_t>(r)];
      if (l == 0) continue;
      Rng g = item_rng(row_seed, static_cast<uint64_t>(r));
      // The window the columns come from.
      long long w0 = 0, w = n_cols;
      if (band > 0 && band < n_cols && l < band) {
        w = band;
        const long long centre = static_cast<long long>(static_cast<double>(r) * n_cols / n_rows);
        w0 = std::clamp(centre - band / 2, 0LL, n_cols - band);
      }
      picked.clear();
      if (l == w) {
        for (long long c = 0; c < w; ++c) picked.push_back(w0 + c);
      } else if (l * 4 > w) {  // selection sampling: each column in turn, with the right odds
        long long need = l;
        for (long long c = 0; c < w && need > 0; ++c)
          if (g.uniform() * static_cast<double>(w - c) < static_cast<double>(need)) {
            picked.push_back(w0 + c);
            --need;
          }
      } else {  // few of many: draw, then drop repeats and draw again
        while (static_cast<long long>(picked.size()) < l) {
          while (static_cast<long long>(picked.size()) < l)
            picked.push_back(w0 + static_cast<long long>(g.next() % static_cast<uint64_t>(w)));
          std::sort(picked.begin(), picked.end());
          picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
        }
      }
      const size_t base = static_cast<size_t>(row_ptr[static_cast<size_t>(r)]);
      for (size_t i = 0; i < picked.size(); ++i) {
        col_idx[base + i] = static_cast<int>(picked[i]);
        values[base + i] = draw_value(g, positive);
      }
    }
  });

  std::vector<float> x(static_cast<size_t>(n_cols));
  for (auto& v : x) v = draw_value(rng, positive);
  write_npy(dir / "row_ptr.npy", {row_ptr.size()}, row_ptr.data());
  write_npy(dir / "col_idx.npy", {col_idx.size()}, col_idx.data());
  write_npy(dir / "values.npy", {values.size()}, values.data());
  write_npy(dir / "x.npy", {x.size()}, x.data());
}

// One 1-D array of `dtype`, checked.
NpyArray vector_file(const std::filesystem::path& file, DType dtype) {
  NpyArray a = read_npy(file, dtype);
  if (a.shape.size() != 1) throw std::runtime_error(file.string() + " is not one-dimensional");
  return a;
}

void oracle_scan(const std::filesystem::path& in, const std::filesystem::path& out) {
  const NpyArray values = vector_file(in / "values.npy", DType::f32);
  const NpyArray flags = vector_file(in / "flags.npy", DType::u8);
  if (flags.count() != values.count())
    throw std::runtime_error("flags.npy and values.npy differ in length");
  const size_t n = values.count();
  const float* x = values.as<float>();
  const uint8_t* f = flags.as<uint8_t>();
  // One array at a time (2^28 elements are 2 GB each in fp64).
  std::vector<double> a(n);
  for (const bool exclusive : {false, true})
    for (const bool magnitude : {false, true}) {
      double s = 0;
      for (size_t k = 0; k < n; ++k) {
        if (k == 0 || f[k]) s = 0;
        const double v = magnitude ? std::fabs(static_cast<double>(x[k])) : x[k];
        if (exclusive) {
          a[k] = s;
          s += v;
        } else {
          s += v;
          a[k] = s;
        }
      }
      const std::string name =
          std::string(exclusive ? "exclusive" : "inclusive") + (magnitude ? "_magnitude" : "");
      write_npy(out / (name + ".npy"), {n}, a.data());
    }
}

void oracle_spmv(const std::filesystem::path& in, const std::filesystem::path& out) {
  const NpyArray row_ptr = vector_file(in / "row_ptr.npy", DType::i32);
  const NpyArray col_idx = vector_file(in / "col_idx.npy", DType::i32);
  const NpyArray values = vector_file(in / "values.npy", DType::f32);
  const NpyArray x = vector_file(in / "x.npy", DType::f32);
  const size_t n_rows = row_ptr.count() - 1;
  const int* rp = row_ptr.as<int>();
  const int* ci = col_idx.as<int>();
  const float* a = values.as<float>();
  const float* xv = x.as<float>();
  std::vector<double> y(n_rows), m(n_rows);
  parallel_for_chunks(n_rows, 1024, [&](size_t r) {
    double s = 0, abs_s = 0;
    for (int k = rp[r]; k < rp[r + 1]; ++k) {
      const double t = static_cast<double>(a[k]) * xv[ci[k]];
      s += t;
      abs_s += std::fabs(t);
    }
    y[r] = s;
    m[r] = abs_s;
  });
  write_npy(out / "y.npy", {n_rows}, y.data());
  write_npy(out / "y_magnitude.npy", {n_rows}, m.data());
}

class Generator final : public DatasetGenerator {
 public:
  int version() const override { return 1; }

  void generate(const nlohmann::json& params, uint64_t seed,
                const std::filesystem::path& dir) const override {
    const Params p(params);
    if (p.choice("kind", {"scan", "spmv"}, "") == "scan")
      generate_scan(p, seed, dir);
    else
      generate_spmv(p, seed, dir);
  }

  void oracle(const std::filesystem::path& input_dir,
              const std::filesystem::path& expected_dir) const override {
    if (std::filesystem::exists(input_dir / "flags.npy"))
      oracle_scan(input_dir, expected_dir);
    else
      oracle_spmv(input_dir, expected_dir);
  }
};

}  // namespace
}  // namespace gpulab::segmented_scan_data

GPULAB_DATASETS("segmented-scan", gpulab::segmented_scan_data::Generator);
