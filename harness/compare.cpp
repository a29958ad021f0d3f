#include "compare.h"

#include <cmath>
#include <cstdio>

#include "poison.h"

namespace gpulab {

double SumMagnitudeTolerance::bound(double magnitude, double terms, double position) const {
  return K * unit_roundoff * (std::sqrt(std::max(terms, 1.0)) * magnitude + position);
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

CompareResult compare_sum_magnitude(const float* got, const double* expected,
                                    const double* magnitude, size_t count,
                                    const SumMagnitudeTolerance& tol,
                                    const PerElementBound& per_element) {
  CompareResult r;
  r.count = count;
  bool have_unwritten = false;
  double worst_ratio = -1;  // of the failing finite values; NaNs are reported only if none
  for (size_t i = 0; i < count; ++i) {
    const float g = got[i];
    const double b = tol.bound(magnitude[i], per_element.terms ? per_element.terms[i] : tol.n_terms,
                               per_element.position ? per_element.position[i] : 0.0);
    if (is_poison(g)) {
      if (!have_unwritten) r.first_unwritten = i;
      have_unwritten = true;
      ++r.n_unwritten;
      continue;
    }
    if (!std::isfinite(g)) {
      if (r.n_nan++ == 0 && worst_ratio < 0) {
        r.worst_index = i;
        r.worst_expected = expected[i];
        r.worst_got = g;
        r.worst_bound = b;
      }
      continue;
    }
    const double err = std::fabs(static_cast<double>(g) - expected[i]);
    // A zero bound (no terms) demands an exact answer.
    const double ratio = b > 0 ? err / b : (err == 0 ? 0.0 : INFINITY);
    if (ratio > r.max_err_over_bound) r.max_err_over_bound = ratio;
    if (err > b) {
      ++r.n_fail;
      if (ratio > worst_ratio) {
        worst_ratio = ratio;
        r.worst_index = i;
        r.worst_expected = expected[i];
        r.worst_got = g;
        r.worst_bound = b;
      }
    }
  }
  if (r.n_nan || r.n_unwritten) r.max_err_over_bound = INFINITY;
  r.pass = r.n_fail == 0 && r.n_nan == 0 && r.n_unwritten == 0;
  return r;
}

CompareResult compare_exact(const int32_t* got, const int32_t* expected, size_t count) {
  CompareResult r;
  r.exact = true;
  r.count = count;
  for (size_t i = 0; i < count; ++i) {
    if (got[i] == expected[i]) continue;
    if (got[i] == kPoisonInt) {
      if (r.n_unwritten++ == 0) r.first_unwritten = i;
      continue;
    }
    if (r.n_fail++ == 0) {
      r.worst_index = i;
      r.worst_expected = expected[i];
      r.worst_got = got[i];
    }
  }
  r.pass = r.n_fail == 0 && r.n_unwritten == 0;
  r.max_err_over_bound = r.pass ? 0 : INFINITY;
  return r;
}

std::string CompareResult::message(const std::string& output_name,
                                   const std::vector<size_t>& shape) const {
  if (!problem.empty()) return output_name + ": " + problem;
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
  if (n_nan) {
    std::snprintf(buf, sizeof buf,
                  "%zu values are NaN or infinite. If you accumulate into the output, set it "
                  "first: it arrives filled with NaN. ",
                  n_nan);
    m += buf;
  }
  if (n_fail && exact) {
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu values are wrong (integers must match exactly); the first is at %s: "
                  "expected %.0f, got %.0f (off by %.0f).",
                  n_fail, count, index_string(worst_index, shape).c_str(), worst_expected,
                  worst_got, worst_got - worst_expected);
    m += buf;
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
