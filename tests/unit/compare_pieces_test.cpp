// harness/compare.cpp spreads a comparison over the cores in pieces of kComparePiece elements
// (a timed sample's output runs to 268M): what it reports must be what one loop over the
// elements in order reports, whatever piece each element falls in.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "compare.h"
#include "poison.h"

namespace {

using gpulab::CompareResult;
using gpulab::kComparePiece;

constexpr double kU = 0x1p-24;
constexpr size_t kP = kComparePiece;
constexpr size_t kCount = 2 * kP + 12345;  // three pieces, the last one short

gpulab::SumMagnitudeTolerance unit_tolerance() {
  gpulab::SumMagnitudeTolerance t;
  t.K = 1;
  t.unit_roundoff = kU;
  t.n_terms = 1;
  return t;
}

// Values of 1 everywhere (magnitude 1), and room to plant errors.
struct Arrays {
  std::vector<float> got = std::vector<float>(kCount, 1.0f);
  std::vector<double> expected = std::vector<double>(kCount, 1.0);
  std::vector<double> magnitude = std::vector<double>(kCount, 1.0);
  // An error of `over` times the bound u at element i (got stays 1, the oracle moves).
  void plant(size_t i, double over) { expected[i] = 1.0 + over * kU; }
  CompareResult compare(const gpulab::PerElementBound& per_element = {}) const {
    return gpulab::compare_sum_magnitude(got.data(), expected.data(), magnitude.data(), kCount,
                                         unit_tolerance(), per_element);
  }
};

}  // namespace

TEST_CASE("a comparison in pieces counts every piece and names the worst element of them all") {
  Arrays a;
  a.plant(kP - 1, 3);         // fails in the first piece
  a.plant(kP + 5, 7);         // the worst, in the second
  a.plant(2 * kP + 7, 7);     // as bad, later: the first of equals is named
  a.plant(2 * kP + 11, 0.5);  // within its bound
  a.got[3] = std::numeric_limits<float>::quiet_NaN();  // a NaN before them all
  a.got[kP + 200] = gpulab::poison_float();
  a.got[2 * kP + 100] = gpulab::poison_float();
  const CompareResult r = a.compare();
  CHECK_FALSE(r.pass);
  CHECK(r.count == kCount);
  CHECK(r.n_fail == 3);
  CHECK(r.n_nan == 1);
  CHECK(r.n_unwritten == 2);
  CHECK(r.first_unwritten == kP + 200);
  CHECK(r.worst_index == kP + 5);  // a failing value outranks the NaN
  CHECK(r.worst_bound == doctest::Approx(kU));
  CHECK(std::isinf(r.max_err_over_bound));  // unwritten values

  Arrays clean;
  clean.plant(2 * kP + 11, 0.5);
  clean.plant(kP + 1, 0.75);
  const CompareResult ok = clean.compare();
  CHECK(ok.pass);
  CHECK(ok.max_err_over_bound == doctest::Approx(0.75).epsilon(1e-6));
}

TEST_CASE("where nothing fails, the first NaN of any piece is named") {
  Arrays a;
  a.got[2 * kP + 1] = std::numeric_limits<float>::infinity();
  a.got[kP + 9] = std::numeric_limits<float>::quiet_NaN();
  const CompareResult r = a.compare();
  CHECK_FALSE(r.pass);
  CHECK(r.n_nan == 2);
  CHECK(r.n_fail == 0);
  CHECK(r.worst_index == kP + 9);
}

TEST_CASE("a prefix that starts in one piece counts its terms into the next ones") {
  // Heads at 0 and at kP - 10 only: element i >= kP - 10 has i - (kP - 10) + 1 terms, its
  // bound u * sqrt(terms). Were the count restarted at a piece's start, the bounds of the later
  // pieces would shrink, and the values planted just inside them would fail.
  Arrays a;
  std::vector<uint8_t> heads(kCount, 0);
  heads[0] = 1;
  heads[kP - 10] = 1;
  const auto bound_at = [&](size_t i) { return std::sqrt(static_cast<double>(i - (kP - 10) + 1)); };
  a.plant(2 * kP + 3, 0.9 * bound_at(2 * kP + 3));  // passes with the right count only
  a.plant(kP + 2, 0.9 * bound_at(kP + 2));
  const size_t failing = 2 * kP + 500;
  a.plant(failing, 1.1 * bound_at(failing));
  gpulab::PerElementBound per_element;
  per_element.prefix = true;
  per_element.heads = heads.data();
  const CompareResult r = a.compare(per_element);
  CHECK(r.n_fail == 1);
  CHECK(r.worst_index == failing);
  CHECK(r.worst_bound == doctest::Approx(bound_at(failing) * kU));
}

TEST_CASE("an exact comparison in pieces names the first difference and the first unwritten") {
  std::vector<int32_t> expected(kCount), got(kCount);
  for (size_t i = 0; i < kCount; ++i) expected[i] = got[i] = static_cast<int32_t>(i);
  got[2 * kP + 1] = -1;
  got[kP + 3] = -2;
  got[kP + 50] = gpulab::kPoisonInt;
  got[5] = gpulab::kPoisonInt;
  const CompareResult r = gpulab::compare_exact(got.data(), expected.data(), kCount);
  CHECK_FALSE(r.pass);
  CHECK(r.exact);
  CHECK(r.n_fail == 2);
  CHECK(r.n_unwritten == 2);
  CHECK(r.worst_index == kP + 3);
  CHECK(r.worst_got == -2);
  CHECK(r.first_unwritten == 5);
}
