// harness/compare.h and harness/poison.h: the sum-magnitude tolerance (compare.h), the
// separation of "never written" from "computed NaN", and a message a student can act on.
#include "compare.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "poison.h"
#include "test_util.h"

namespace {

using gpulab::CompareResult;
using gpulab::SumMagnitudeTolerance;
using test::contains;

constexpr double kU = 0x1p-24;

SumMagnitudeTolerance tolerance(double K, double n_terms) {
  SumMagnitudeTolerance t;
  t.K = K;
  t.unit_roundoff = kU;
  t.n_terms = n_terms;
  return t;
}

CompareResult compare(const std::vector<float>& got, const std::vector<double>& expected,
                      const std::vector<double>& magnitude, const SumMagnitudeTolerance& tol) {
  REQUIRE(got.size() == expected.size());
  REQUIRE(got.size() == magnitude.size());
  return gpulab::compare_sum_magnitude(got.data(), expected.data(), magnitude.data(), got.size(),
                                       tol);
}

}  // namespace

TEST_CASE("SumMagnitudeTolerance::bound is K * sqrt(n) * u * magnitude") {
  CHECK(tolerance(4, 100).bound(3.0) == doctest::Approx(4 * 10 * kU * 3.0).epsilon(1e-15));
  CHECK(tolerance(2, 37).bound(0.5) ==
        doctest::Approx(2 * std::sqrt(37.0) * kU * 0.5).epsilon(1e-15));
  CHECK(tolerance(4, 100).bound(0.0) == 0.0);
}

TEST_CASE("poison is a NaN that arithmetic does not produce") {
  const float p = gpulab::poison_float();
  CHECK(std::isnan(p));
  CHECK(gpulab::is_poison(p));
  CHECK_FALSE(gpulab::is_poison(std::numeric_limits<float>::quiet_NaN()));
  volatile float zero = 0.0f;  // volatile: a NaN computed at run time, not folded
  CHECK_FALSE(gpulab::is_poison(zero / zero));
  CHECK_FALSE(gpulab::is_poison(0.0f));
}

TEST_CASE("compare_sum_magnitude passes exact values") {
  const CompareResult r =
      compare({1.5f, -2.25f, 0.0f}, {1.5, -2.25, 0.0}, {3.0, 4.0, 0.0}, tolerance(4, 10));
  CHECK(r.pass);
  CHECK(r.count == 3);
  CHECK(r.n_fail == 0);
  CHECK(r.n_nan == 0);
  CHECK(r.n_unwritten == 0);
  CHECK(r.max_err_over_bound == 0.0);
}

TEST_CASE("compare_sum_magnitude draws the line at the bound") {
  // n_terms = 1, magnitude 1: the bound is 4u. got is exactly 1, expected moves around it.
  const SumMagnitudeTolerance tol = tolerance(4, 1);
  const double b = tol.bound(1.0);
  REQUIRE(b == 4 * kU);

  const CompareResult inside = compare({1.0f}, {1.0 + 0.99 * b}, {1.0}, tol);
  CHECK(inside.pass);
  CHECK(inside.max_err_over_bound == doctest::Approx(0.99));

  const CompareResult outside = compare({1.0f}, {1.0 + 1.01 * b}, {1.0}, tol);
  CHECK_FALSE(outside.pass);
  CHECK(outside.n_fail == 1);
  CHECK(outside.max_err_over_bound == doctest::Approx(1.01));
  CHECK(outside.worst_bound == b);

  // A zero magnitude (no terms) demands an exact answer.
  CHECK(compare({0.0f}, {0.0}, {0.0}, tol).pass);
  CHECK_FALSE(compare({1e-30f}, {0.0}, {0.0}, tol).pass);
}

TEST_CASE("compare_sum_magnitude counts unwritten separately from NaN and infinity") {
  const float poison = gpulab::poison_float();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> got = {1.0f, 2.0f, poison, std::nanf(""), inf, -inf, poison, 3.0f};
  const std::vector<double> expected = {1, 2, 0, 0, 0, 0, 0, 3};
  const std::vector<double> magnitude(got.size(), 10.0);
  const CompareResult r = compare(got, expected, magnitude, tolerance(4, 8));
  CHECK_FALSE(r.pass);
  CHECK(r.n_unwritten == 2);
  CHECK(r.first_unwritten == 2);
  CHECK(r.n_nan == 3);
  CHECK(r.n_fail == 0);
  CHECK(std::isinf(r.max_err_over_bound));
  CHECK(r.worst_index == 3);  // no finite failure, so the first computed NaN is reported
}

TEST_CASE("compare_sum_magnitude reports the element with the largest error over its bound") {
  const SumMagnitudeTolerance tol = tolerance(4, 1);
  // Elements 1 and 3 have the largest absolute errors but large bounds; element 2, between
  // them, a smaller error that is further outside its small bound. Neither the first nor the
  // last failure is the worst.
  const std::vector<double> magnitude = {1, 1e6, 1, 1e6, 1};
  const std::vector<double> expected = {0.5, 1000, 2, -1000, 0.75};
  std::vector<float> got(expected.begin(), expected.end());
  const float big_error = 4.0f * static_cast<float>(tol.bound(1e6));  // ~1, 4x its bound
  got[1] = 1000.0f + big_error;
  got[2] = 2.0f + 1e-5f;  // ~40x its bound
  got[3] = -1000.0f - big_error;
  const CompareResult r = compare(got, expected, magnitude, tol);
  CHECK_FALSE(r.pass);
  CHECK(r.n_fail == 3);
  CHECK(r.worst_index == 2);
  CHECK(r.worst_expected == 2.0);
  CHECK(r.worst_got == static_cast<double>(got[2]));
  CHECK(r.worst_bound == tol.bound(1.0));
  CHECK(r.max_err_over_bound == doctest::Approx((got[2] - 2.0) / tol.bound(1.0)));
}

TEST_CASE("index_string writes a C-order flat index as [k][j][i]") {
  const std::vector<size_t> shape = {2, 3, 4};
  CHECK(gpulab::index_string(0, shape) == "[0][0][0]");
  CHECK(gpulab::index_string(3, shape) == "[0][0][3]");
  CHECK(gpulab::index_string(4, shape) == "[0][1][0]");
  CHECK(gpulab::index_string(13, shape) == "[1][0][1]");
  CHECK(gpulab::index_string(23, shape) == "[1][2][3]");
  CHECK(gpulab::index_string(5, {}) == "[5]");
}

TEST_CASE("CompareResult::message tells a student what went wrong and where") {
  const std::vector<size_t> shape = {2, 3, 4};
  const SumMagnitudeTolerance tol = tolerance(4, 16);
  std::vector<double> expected(24, 1.0), magnitude(24, 2.0);
  std::vector<float> got(24, 1.0f);

  SUBCASE("never written") {
    got[5] = gpulab::poison_float();
    const std::string msg = compare(got, expected, magnitude, tol).message("potential", shape);
    INFO(msg);
    CHECK(contains(msg, "potential"));
    CHECK(contains(msg, "never written"));
    CHECK(contains(msg, "[0][1][1]"));
    CHECK_FALSE(contains(msg, "are NaN"));
  }
  SUBCASE("computed NaN") {
    got[7] = std::nanf("");
    const std::string msg = compare(got, expected, magnitude, tol).message("potential", shape);
    INFO(msg);
    CHECK(contains(msg, "NaN"));
    CHECK(contains(msg, "computed"));
    CHECK_FALSE(contains(msg, "never written"));
    CHECK_FALSE(contains(msg, "arrives filled"));  // not the output's fault
  }
  // A NaN keeps its payload through arithmetic: where it came from is told by it.
  const auto nan_with = [](uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    volatile float one = 1.0f;  // volatile: the sum made at run time, not folded
    return f * one + one;
  };
  SUBCASE("NaN made from never-written device memory: the student's scratch, not the output") {
    got[7] = nan_with(gpulab::kFreshDeviceBits);
    const CompareResult r = compare(got, expected, magnitude, tol);
    CHECK(r.n_nan_scratch == 1);
    const std::string msg = r.message("potential", shape);
    INFO(msg);
    CHECK(contains(msg, "cudaMalloc"));
    CHECK(contains(msg, "read before writing it"));
    CHECK_FALSE(contains(msg, "arrives filled"));
  }
  SUBCASE("NaN made from the output's own poison (negated): the output is to blame") {
    got[7] = -nan_with(gpulab::kPoisonBits);
    const CompareResult r = compare(got, expected, magnitude, tol);
    CHECK(r.n_nan_output == 1);
    CHECK(r.n_unwritten == 0);
    const std::string msg = r.message("potential", shape);
    INFO(msg);
    CHECK(contains(msg, "set it first"));
    CHECK_FALSE(contains(msg, "cudaMalloc"));
  }
  SUBCASE("value outside the bound") {
    expected[17] = 2.5;  // [1][1][1]
    got[17] = 3.0f;
    const std::string msg = compare(got, expected, magnitude, tol).message("potential", shape);
    INFO(msg);
    CHECK(contains(msg, "1 of 24"));
    CHECK(contains(msg, "[1][1][1]"));
    CHECK(contains(msg, "expected 2.5"));
    CHECK(contains(msg, "got 3"));
  }
  SUBCASE("value outside the bound beside a NaN") {
    // The NaN makes the array's max_err_over_bound infinite; the failing value's own ratio
    // (0.5 / (4 * 4 * u * 2), about 2.6e5) must still be the one reported.
    expected[17] = 2.5;
    got[17] = 3.0f;
    got[3] = std::nanf("");
    const std::string msg = compare(got, expected, magnitude, tol).message("potential", shape);
    INFO(msg);
    CHECK(contains(msg, "[1][1][1]"));
    CHECK(contains(msg, "(2.62e+05 times the bound)"));
  }
  SUBCASE("pass") {
    got[0] = 1.0f + 0x1p-23f;
    const CompareResult r = compare(got, expected, magnitude, tol);
    CHECK(r.pass);
    CHECK(r.max_err_over_bound > 0);
    CHECK(r.max_err_over_bound < 1);
    CHECK(contains(r.message("potential", shape), "within tolerance"));
  }
}

TEST_CASE("compare_sum_magnitude with per-element terms uses each element's own n") {
  // Same magnitude and error for both elements; n = 1 and n = 100 give bounds 4u and 40u.
  const SumMagnitudeTolerance tol = tolerance(4, 1);
  const std::vector<float> got = {1.0f, 1.0f};
  const std::vector<double> expected = {1.0 + 10 * kU, 1.0 + 10 * kU}, magnitude = {1.0, 1.0};
  std::vector<double> terms = {1.0, 100.0};
  gpulab::PerElementBound per_element;
  per_element.terms = terms.data();
  const CompareResult r = gpulab::compare_sum_magnitude(got.data(), expected.data(),
                                                        magnitude.data(), 2, tol, per_element);
  CHECK_FALSE(r.pass);
  CHECK(r.n_fail == 1);
  CHECK(r.worst_index == 0);
  CHECK(r.worst_bound == doctest::Approx(4 * kU));
  CHECK(tol.bound(1.0, 100.0) == doctest::Approx(40 * kU));
  // Zero terms at a point (no atom inside a cutoff) count as one, like the scalar n.
  CHECK(tol.bound(1.0, 0.0) == tol.bound(1.0, 1.0));
  terms[0] = 25.0;  // bound 20u: both pass
  CHECK(gpulab::compare_sum_magnitude(got.data(), expected.data(), magnitude.data(), 2, tol,
                                      per_element)
            .pass);
}

TEST_CASE("compare_sum_magnitude with prefix terms gives element k sqrt(terms since its head)") {
  // magnitude 1 everywhere, K = 1: the bound is u * sqrt(m), m the terms of k's prefix.
  const SumMagnitudeTolerance tol = tolerance(1, 1000);  // n_terms is overridden
  const std::vector<float> got(6, 1.0f);
  const std::vector<double> magnitude(6, 1.0);
  // Errors of 1.9u at k = 3 (m = 4: bound 2u) and 1.5u at k = 5.
  std::vector<double> expected(6, 1.0);
  expected[3] = 1.0 + 1.9 * kU;
  expected[5] = 1.0 + 1.5 * kU;
  gpulab::PerElementBound per_element;
  per_element.prefix = true;
  CompareResult r = gpulab::compare_sum_magnitude(got.data(), expected.data(), magnitude.data(),
                                                  got.size(), tol, per_element);
  CHECK(r.pass);  // without heads, m = k + 1: bounds 2u at k = 3 and sqrt(6)u at k = 5
  CHECK(r.max_err_over_bound == doctest::Approx(0.95).epsilon(1e-6));
  // A head at k = 4 restarts the count: k = 5 has m = 2, bound sqrt(2)u < 1.5u.
  const std::vector<uint8_t> heads = {1, 0, 0, 0, 1, 0};
  per_element.heads = heads.data();
  r = gpulab::compare_sum_magnitude(got.data(), expected.data(), magnitude.data(), got.size(), tol,
                                    per_element);
  CHECK_FALSE(r.pass);
  CHECK(r.n_fail == 1);
  CHECK(r.worst_index == 5);
  CHECK(r.worst_bound == doctest::Approx(std::sqrt(2.0) * kU));
}

TEST_CASE("the position sensitivity widens each element's bound by K * u * position") {
  // magnitude 1, n 1: 4u; with position 5 the bound is 4u * (1 + 5) = 24u.
  const SumMagnitudeTolerance tol = tolerance(4, 1);
  CHECK(tol.bound(1.0, 1.0, 5.0) == doctest::Approx(24 * kU));
  const std::vector<float> got = {1.0f, 1.0f};
  const std::vector<double> expected = {1.0 + 20 * kU, 1.0 + 20 * kU}, magnitude = {1.0, 1.0},
                            position = {5.0, 0.0};
  gpulab::PerElementBound per_element;
  per_element.position = position.data();
  const CompareResult r = gpulab::compare_sum_magnitude(got.data(), expected.data(),
                                                        magnitude.data(), 2, tol, per_element);
  CHECK(r.n_fail == 1);  // the element without position sensitivity
  CHECK(r.worst_index == 1);
  CHECK(r.max_err_over_bound == doctest::Approx(5.0).epsilon(0.01));
}

TEST_CASE("compare_exact: integers match bit for bit, and the poison word means never written") {
  const std::vector<int32_t> expected = {0, -5, 2147483647, -2147483647 - 1, 7};
  std::vector<int32_t> got = expected;
  const std::vector<size_t> shape = {5};
  CompareResult r = gpulab::compare_exact(got.data(), expected.data(), got.size());
  CHECK(r.pass);
  CHECK(contains(r.message("sums", shape), "all 5 values exact"));

  got[1] = -4;  // off by one
  got[3] = 0;
  r = gpulab::compare_exact(got.data(), expected.data(), got.size());
  CHECK_FALSE(r.pass);
  CHECK(r.n_fail == 2);
  CHECK(r.worst_index == 1);  // the first that differs
  const std::string m = r.message("sums", shape);
  CHECK(contains(m, "2 of 5 values are wrong"));
  CHECK(contains(m, "at [1]: expected -5, got -4 (off by 1)"));
  CHECK_FALSE(contains(m, "never wrote"));

  // The word the CPU backend fills new cudaMalloc memory with: copied from scratch never set.
  got = expected;
  got[2] = static_cast<int32_t>(gpulab::kFreshDeviceBits);
  r = gpulab::compare_exact(got.data(), expected.data(), got.size());
  CHECK(contains(r.message("sums", shape), "allocated and never wrote"));

  got = expected;
  got[4] = gpulab::kPoisonInt;
  r = gpulab::compare_exact(got.data(), expected.data(), got.size());
  CHECK_FALSE(r.pass);
  CHECK(r.n_unwritten == 1);
  CHECK(r.n_fail == 0);
  CHECK(contains(r.message("sums", shape), "never written"));
  CHECK(contains(r.message("sums", shape), "the first at [4]"));

  // When the poison word is the right answer, it counts as written.
  const std::vector<int32_t> poison_expected = {gpulab::kPoisonInt};
  CHECK(gpulab::compare_exact(poison_expected.data(), poison_expected.data(), 1).pass);
}

TEST_CASE(
    "compare_segment_sets: each segment is a set, and the message names the first that differs") {
  // Three segments of a 1 x 3 shape plus one extra past it: {3, 1}, {}, {0, 4, 2}, {5}.
  const std::vector<int32_t> starts = {0, 2, 2, 5}, counts = {2, 0, 3, 1};
  const std::vector<int32_t> expected = {1, 3, 0, 2, 4, 5};
  gpulab::SegmentNames names;
  names.noun = "cell";
  names.shape = {1, 3};
  auto compare = [&](const std::vector<int32_t>& got) {
    return gpulab::compare_segment_sets(got.data(), expected.data(), got.size(), starts.data(),
                                        counts.data(), starts.size(), names);
  };
  const std::vector<size_t> shape = {6};

  SUBCASE("any order inside a segment passes") {
    const CompareResult r = compare({3, 1, 4, 2, 0, 5});
    CHECK(r.pass);
    CHECK(contains(r.message("particle_index", shape), "all 4 cells hold the expected values"));
  }
  SUBCASE("a value in the wrong segment fails, naming the segment by its coordinates") {
    const CompareResult r = compare({3, 0, 1, 2, 4, 5});  // 0 and 1 swapped across cells
    CHECK_FALSE(r.pass);
    CHECK(r.n_fail == 2);
    const std::string m = r.message("particle_index", shape);
    INFO(m);
    CHECK(contains(m, "particle_index: 2 of 4 cells hold the wrong values"));
    CHECK(contains(m, "the order inside it does not matter"));
    CHECK(contains(m, "cell [0][0] (id 0), elements [0, 2) of the array"));
    CHECK(contains(m, "expected {1, 3}, got {0, 3} (missing {1}; not expected {0})"));
  }
  SUBCASE("the extra segment past the shape is named by its id") {
    names.shape = {1, 3};
    const CompareResult r = compare({3, 1, 0, 2, 4, 4});
    CHECK(contains(r.message("particle_index", shape), "cell id 3 (past the 3 of shape (1, 3))"));
    names.shape.clear();
    CHECK(contains(compare({3, 1, 0, 2, 4, 4}).message("particle_index", shape),
                   "the first is cell id 3, elements [5, 6)"));
  }
  SUBCASE("poison is never written") {
    const CompareResult r = compare({3, 1, 0, 2, gpulab::kPoisonInt, 5});
    CHECK_FALSE(r.pass);
    CHECK(r.n_unwritten == 1);
    const std::string m = r.message("particle_index", shape);
    INFO(m);
    CHECK(contains(m, "1 of 6 values were never written"));
    CHECK(contains(m, "the first at [4]"));
    CHECK(contains(m, "got {0, 2, never written}"));
    const std::vector<int32_t> none(6, gpulab::kPoisonInt);
    const std::string all = compare(none).message("particle_index", shape);
    INFO(all);
    CHECK(contains(all, "Nothing was written at all"));
    CHECK_FALSE(contains(all, "wrong values"));
  }
  SUBCASE("long segments are shortened in the message") {
    std::vector<int32_t> e(20), g(20);
    for (int i = 0; i < 20; ++i) e[static_cast<size_t>(i)] = g[static_cast<size_t>(i)] = i;
    g[19] = 99;
    const std::vector<int32_t> s = {0}, c = {20};
    const CompareResult r =
        gpulab::compare_segment_sets(g.data(), e.data(), 20, s.data(), c.data(), 1);
    const std::string m = r.message("idx", {20});
    INFO(m);
    CHECK(contains(m, "segment id 0"));
    CHECK(contains(m, "{0, 1, 2, 3, 4, 5, 6, 7, ... (20 values)}"));
    CHECK(contains(m, "(missing {19}; not expected {99})"));
  }
  SUBCASE("a layout that does not cover the values exactly once is the oracle's error") {
    const std::vector<int32_t> got = expected;
    const std::vector<int32_t> gap_starts = {0, 2, 3, 5}, gap_counts = {2, 0, 2, 1};
    CHECK_THROWS_AS(gpulab::compare_segment_sets(got.data(), expected.data(), 6, gap_starts.data(),
                                                 gap_counts.data(), 4),
                    std::invalid_argument);
    const std::vector<int32_t> long_counts = {2, 0, 3, 2};
    CHECK_THROWS_AS(gpulab::compare_segment_sets(got.data(), expected.data(), 6, starts.data(),
                                                 long_counts.data(), 4),
                    std::invalid_argument);
    const std::vector<int32_t> overlap_starts = {0, 2, 1, 5};
    CHECK_THROWS_AS(gpulab::compare_segment_sets(got.data(), expected.data(), 6,
                                                 overlap_starts.data(), counts.data(), 4),
                    std::invalid_argument);
  }
}
