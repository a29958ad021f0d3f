#include "compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "parallel.h"
#include "poison.h"

namespace gpulab {

double SumMagnitudeTolerance::bound(double magnitude, double terms, double position) const {
  return K * unit_roundoff * (std::sqrt(std::max(terms, 1.0)) * magnitude + position);
}

double element_bound(const double* magnitude, size_t i, size_t start,
                     const SumMagnitudeTolerance& tol, const PerElementBound& per_element) {
  const double terms = per_element.prefix  ? static_cast<double>(i - start + 1)
                       : per_element.terms ? per_element.terms[i]
                                           : tol.n_terms;
  return tol.bound(magnitude[i], terms, per_element.position ? per_element.position[i] : 0.0);
}

std::vector<double> sum_magnitude_bounds(const double* magnitude, size_t count,
                                         const SumMagnitudeTolerance& tol,
                                         const PerElementBound& per_element) {
  std::vector<double> b(count);
  size_t start = 0;
  for (size_t i = 0; i < count; ++i) {
    if (per_element.heads && per_element.heads[i]) start = i;
    b[i] = element_bound(magnitude, i, start, tol, per_element);
  }
  return b;
}

double error_over_bound(double err, double bound) {
  return bound > 0 ? err / bound : (err == 0 ? 0.0 : INFINITY);
}

std::string index_string(size_t flat, const std::vector<size_t>& shape) {
  if (shape.empty()) return "[" + std::to_string(flat) + "]";
  std::vector<size_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    const size_t extent = shape[d] ? shape[d] : 1;
    idx[d] = flat % extent;
    flat /= extent;
  }
  std::string s;
  for (size_t i : idx) s += "[" + std::to_string(i) + "]";
  return s;
}

namespace {

uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// One piece of a comparison, [begin, end): its counts, and its candidates for the places the
// whole result names.
struct Piece {
  CompareResult r;
  bool have_unwritten = false;
  double worst_ratio = -1;  // of the failing finite values
  bool have_nan = false;    // and the first NaN's place, in r.worst_* until a failing value
  size_t nan_index = 0;
  double nan_expected = 0, nan_got = 0, nan_bound = 0;
};

// The number of pieces of kComparePiece elements that cover `count`.
size_t pieces_of(size_t count) {
  return count == 0 ? 0 : (count - 1) / kComparePiece + 1;
}

// The pieces' results as one, as a single loop over the elements in order would give them: the
// counts summed, the first unwritten element, the failing value with the largest error over its
// bound (the first of equals), or where none fails the first NaN.
CompareResult merged(const std::vector<Piece>& pieces, size_t count, bool exact) {
  CompareResult r;
  r.count = count;
  r.exact = exact;
  bool have_unwritten = false;
  double worst_ratio = -1;
  const Piece* first_nan = nullptr;
  for (const Piece& p : pieces) {
    r.n_fail += p.r.n_fail;
    r.n_nan += p.r.n_nan;
    r.n_nan_output += p.r.n_nan_output;
    r.n_nan_scratch += p.r.n_nan_scratch;
    r.n_unwritten += p.r.n_unwritten;
    r.max_err_over_bound = std::max(r.max_err_over_bound, p.r.max_err_over_bound);
    if (p.have_unwritten && !have_unwritten) {
      have_unwritten = true;
      r.first_unwritten = p.r.first_unwritten;
    }
    if (p.have_nan && !first_nan) first_nan = &p;
    if (p.r.n_fail > 0 && p.worst_ratio > worst_ratio) {
      worst_ratio = p.worst_ratio;
      r.worst_index = p.r.worst_index;
      r.worst_expected = p.r.worst_expected;
      r.worst_got = p.r.worst_got;
      r.worst_bound = p.r.worst_bound;
    }
  }
  if (r.n_fail == 0 && first_nan) {
    r.worst_index = first_nan->nan_index;
    r.worst_expected = first_nan->nan_expected;
    r.worst_got = first_nan->nan_got;
    r.worst_bound = first_nan->nan_bound;
  }
  return r;
}

}  // namespace

CompareResult compare_sum_magnitude(const float* got, const double* expected,
                                    const double* magnitude, size_t count,
                                    const SumMagnitudeTolerance& tol,
                                    const PerElementBound& per_element) {
  const size_t n_pieces = pieces_of(count);
  // Where the prefix that each piece starts inside begins: the last head before the piece.
  std::vector<size_t> prefix_start(n_pieces, 0);
  if (per_element.prefix && per_element.heads) {
    std::vector<size_t> last_head(n_pieces, count);  // count: none in the piece
    parallel_for(n_pieces, [&](size_t p) {
      const size_t begin = p * kComparePiece, end = std::min(count, begin + kComparePiece);
      for (size_t i = end; i-- > begin;)
        if (per_element.heads[i]) {
          last_head[p] = i;
          break;
        }
    });
    for (size_t p = 1; p < n_pieces; ++p)
      prefix_start[p] = last_head[p - 1] < count ? last_head[p - 1] : prefix_start[p - 1];
  }
  std::vector<Piece> pieces(n_pieces);
  parallel_for(n_pieces, [&](size_t p) {
    Piece& piece = pieces[p];
    CompareResult& r = piece.r;
    const size_t begin = p * kComparePiece, end = std::min(count, begin + kComparePiece);
    size_t start = prefix_start[p];
    for (size_t i = begin; i < end; ++i) {
      const float g = got[i];
      if (per_element.heads && per_element.heads[i]) start = i;
      const double b = element_bound(magnitude, i, start, tol, per_element);
      if (is_poison(g)) {
        if (!piece.have_unwritten) r.first_unwritten = i;
        piece.have_unwritten = true;
        ++r.n_unwritten;
        continue;
      }
      if (!std::isfinite(g)) {
        // Arithmetic keeps a NaN operand's payload, so a NaN made from a poison still bears it.
        const uint32_t payload = float_bits(g) & 0x7fffffffu;
        r.n_nan_output += payload == kPoisonBits;
        r.n_nan_scratch += payload == kFreshDeviceBits;
        if (r.n_nan++ == 0) {
          piece.have_nan = true;
          piece.nan_index = i;
          piece.nan_expected = expected[i];
          piece.nan_got = g;
          piece.nan_bound = b;
        }
        continue;
      }
      const double err = std::fabs(static_cast<double>(g) - expected[i]);
      const double ratio = error_over_bound(err, b);
      if (ratio > r.max_err_over_bound) r.max_err_over_bound = ratio;
      if (err > b) {
        ++r.n_fail;
        if (ratio > piece.worst_ratio) {
          piece.worst_ratio = ratio;
          r.worst_index = i;
          r.worst_expected = expected[i];
          r.worst_got = g;
          r.worst_bound = b;
        }
      }
    }
  });
  CompareResult r = merged(pieces, count, false);
  if (r.n_nan || r.n_unwritten) r.max_err_over_bound = INFINITY;
  r.pass = r.n_fail == 0 && r.n_nan == 0 && r.n_unwritten == 0;
  return r;
}

CompareResult compare_exact(const int32_t* got, const int32_t* expected, size_t count) {
  std::vector<Piece> pieces(pieces_of(count));
  parallel_for(pieces.size(), [&](size_t p) {
    Piece& piece = pieces[p];
    CompareResult& r = piece.r;
    const size_t begin = p * kComparePiece, end = std::min(count, begin + kComparePiece);
    for (size_t i = begin; i < end; ++i) {
      if (got[i] == expected[i]) continue;
      if (got[i] == kPoisonInt) {
        if (r.n_unwritten++ == 0) r.first_unwritten = i;
        piece.have_unwritten = true;
        continue;
      }
      if (r.n_fail++ == 0) {  // the first that differs is the worst
        piece.worst_ratio = INFINITY;
        r.worst_index = i;
        r.worst_expected = expected[i];
        r.worst_got = got[i];
      }
    }
  });
  CompareResult r = merged(pieces, count, true);
  r.pass = r.n_fail == 0 && r.n_unwritten == 0;
  r.max_err_over_bound = r.pass ? 0 : INFINITY;
  return r;
}

namespace {

std::string value_string(int32_t v) {
  return v == kPoisonInt ? std::string("never written") : std::to_string(v);
}

// "{1, 2, 3}", at most `shown` values, then how many there are in all.
std::string set_string(const std::vector<int32_t>& v, size_t shown = 8) {
  std::string s = "{";
  for (size_t i = 0; i < v.size() && i < shown; ++i) s += (i ? ", " : "") + value_string(v[i]);
  if (v.size() > shown) s += ", ... (" + std::to_string(v.size()) + " values)";
  return s + "}";
}

// The values of sorted `a` that sorted `b` lacks, as a multiset.
std::vector<int32_t> minus(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  std::vector<int32_t> d;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d));
  return d;
}

std::string segment_name(size_t s, const SegmentNames& names) {
  const std::string id = names.noun + " id " + std::to_string(s);
  if (names.shape.empty()) return id;
  size_t total = 1;
  std::string dims;
  for (size_t d : names.shape) {
    total *= d;
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  }
  if (s < total)
    return names.noun + " " + index_string(s, names.shape) + " (id " + std::to_string(s) + ")";
  return id + " (past the " + std::to_string(total) + " of shape (" + dims + "))";
}

}  // namespace

CompareResult compare_segment_sets(const int32_t* got, const int32_t* expected, size_t count,
                                   const int32_t* starts, const int32_t* counts, size_t n_segments,
                                   const SegmentNames& names) {
  CompareResult r;
  r.exact = true;
  r.count = count;
  std::vector<unsigned char> covered(count, 0);
  for (size_t s = 0; s < n_segments; ++s) {
    const bool in_range = starts[s] >= 0 && counts[s] >= 0 &&
                          static_cast<size_t>(starts[s]) + static_cast<size_t>(counts[s]) <= count;
    if (!in_range)
      throw std::invalid_argument("the expected layout's segment " + std::to_string(s) +
                                  " (start " + std::to_string(starts[s]) + ", count " +
                                  std::to_string(counts[s]) + ") does not lie in the " +
                                  std::to_string(count) + " elements");
    for (int32_t k = 0; k < counts[s]; ++k)
      if (covered[static_cast<size_t>(starts[s] + k)]++)
        throw std::invalid_argument("the expected layout's segments overlap at element " +
                                    std::to_string(starts[s] + k));
  }
  for (size_t i = 0; i < count; ++i) {
    if (!covered[i])
      throw std::invalid_argument("the expected layout's segments leave element " +
                                  std::to_string(i) + " out");
    if (got[i] == kPoisonInt && expected[i] != kPoisonInt && r.n_unwritten++ == 0)
      r.first_unwritten = i;
  }
  std::vector<int32_t> g, e, first_g, first_e;
  size_t first = 0;
  for (size_t s = 0; s < n_segments; ++s) {
    g.assign(got + starts[s], got + starts[s] + counts[s]);
    e.assign(expected + starts[s], expected + starts[s] + counts[s]);
    std::sort(g.begin(), g.end());
    std::sort(e.begin(), e.end());
    if (g == e) continue;
    if (r.n_fail++ == 0) {
      first = s;
      first_g.swap(g);
      first_e.swap(e);
    }
  }
  r.pass = r.n_fail == 0 && r.n_unwritten == 0;
  r.max_err_over_bound = r.pass ? 0 : INFINITY;
  const std::string plural = names.noun + "s";
  if (r.pass) {
    r.summary = "all " + std::to_string(n_segments) + " " + plural +
                " hold the expected values (compared as sets)";
    return r;
  }
  if (r.n_unwritten) {
    r.summary += std::to_string(r.n_unwritten) + " of " + std::to_string(count) +
                 " values were never written (they still hold the poison value 2144000941 the "
                 "output buffer starts with), the first at [" +
                 std::to_string(r.first_unwritten) + "]. ";
    if (r.n_unwritten == count)
      r.summary +=
          "Nothing was written at all: is the part implemented, and are its kernels "
          "launched? ";
  }
  if (r.n_fail && r.n_unwritten < count) {  // (when nothing was written, that says it all)
    const size_t b = static_cast<size_t>(starts[first]);
    r.summary += std::to_string(r.n_fail) + " of " + std::to_string(n_segments) + " " + plural +
                 " hold the wrong values (each " + names.noun +
                 " is compared as a set: the order inside it does not matter); the first is " +
                 segment_name(first, names) + ", elements [" + std::to_string(b) + ", " +
                 std::to_string(b + first_e.size()) + ") of the array: expected " +
                 set_string(first_e) + ", got " + set_string(first_g);
    const std::vector<int32_t> missing = minus(first_e, first_g), extra = minus(first_g, first_e);
    std::string diff;
    if (!missing.empty()) diff += "missing " + set_string(missing);
    if (!extra.empty())
      diff += (diff.empty() ? "" : "; ") + std::string("not expected ") + set_string(extra);
    r.summary += " (" + diff + ").";
  }
  while (!r.summary.empty() && r.summary.back() == ' ') r.summary.pop_back();
  return r;
}

namespace {

// The sentences on `n` non-finite values, `output` of them made from the output's poison and
// `scratch` from never-written device memory; the rest the code computed.
std::string nan_words(size_t n, size_t output, size_t scratch) {
  std::string m = std::to_string(n) + (n == 1 ? " value is" : " values are") + " NaN or infinite";
  if (output == 0 && scratch == 0) return m + ": computed (a division by zero, an overflow?). ";
  m += ". ";
  if (output)
    m += std::to_string(output) +
         " carry the poison the output arrives filled with: if you accumulate into the output, "
         "set it first. ";
  if (scratch)
    m += std::to_string(scratch) +
         " carry the NaN the CPU backend fills new cudaMalloc memory with: they were computed "
         "from device memory your code allocated and read before writing it (a scratch buffer "
         "not initialised?). ";
  return m;
}

}  // namespace

std::string CompareResult::message(const std::string& output_name,
                                   const std::vector<size_t>& shape) const {
  if (!problem.empty()) return output_name + ": " + problem;
  if (!summary.empty()) return output_name + ": " + summary;
  char buf[512];
  if (pass && exact) return output_name + ": all " + std::to_string(count) + " values exact";
  if (pass) {
    std::snprintf(buf, sizeof buf,
                  "%s: all %zu values within tolerance (largest error is %.3g of its bound)",
                  output_name.c_str(), count, max_err_over_bound);
    return buf;
  }
  std::string m = output_name + ": ";
  if (n_unwritten) {
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu values were never written (they still hold the poison %s the "
                  "output buffer starts with), the first at %s. ",
                  n_unwritten, count, exact ? "value 2144000941" : "NaN",
                  index_string(first_unwritten, shape).c_str());
    m += buf;
    if (n_unwritten == count)
      m += "Nothing was written at all: is the part implemented, and are its kernels launched? ";
    else
      m += "Check the bounds of your grid: are all elements covered? ";
  }
  // Each NaN blamed on where its payload says it came from: only the output's own poison is
  // the output's fault (nan_words).
  if (n_nan) m += nan_words(n_nan, n_nan_output, n_nan_scratch);
  if (n_fail && exact) {
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu values are wrong (integers must match exactly); the first is at %s: "
                  "expected %.0f, got %.0f (off by %.0f).",
                  n_fail, count, index_string(worst_index, shape).c_str(), worst_expected,
                  worst_got, worst_got - worst_expected);
    m += buf;
    if (worst_got == static_cast<int32_t>(kFreshDeviceBits))
      m += " That is the value the CPU backend fills new cudaMalloc memory with: it was read "
           "from device memory your code allocated and never wrote.";
  } else if (n_fail) {
    // The worst value's own ratio: max_err_over_bound is infinite when a NaN sits beside it.
    const double worst_err = std::fabs(worst_got - worst_expected);
    const double worst_ratio = worst_bound > 0 ? worst_err / worst_bound : INFINITY;
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu values are outside the error bound; the worst is at %s: expected "
                  "%.9g, got %.9g, error %.3g, allowed %.3g (%.3g times the bound).",
                  n_fail, count, index_string(worst_index, shape).c_str(), worst_expected,
                  worst_got, worst_err, worst_bound, worst_ratio);
    m += buf;
  }
  while (!m.empty() && m.back() == ' ') m.pop_back();
  return m;
}

}  // namespace gpulab
