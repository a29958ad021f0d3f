// harness/stats.h: the median and its robust standard error, which decide when timing stops.
#include "stats.h"

#include <doctest/doctest.h>

#include <cmath>

TEST_CASE("median of odd, even and unsorted samples") {
  CHECK(gpulab::median({5.0}) == 5.0);
  CHECK(gpulab::median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(gpulab::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(gpulab::median({9.0, -1.0, 7.0, 7.0, 100.0, 0.5}) == 7.0);
  CHECK(gpulab::median({10.0, 2.0, 8.0, 4.0, 6.0}) == 6.0);
}

TEST_CASE("median_standard_error") {
  SUBCASE("is infinite with fewer than two samples") {
    CHECK(std::isinf(gpulab::median_standard_error({})));
    CHECK(std::isinf(gpulab::median_standard_error({1.0})));
  }
  SUBCASE("is zero for identical samples") {
    CHECK(gpulab::median_standard_error({2.5, 2.5, 2.5, 2.5}) == 0.0);
  }
  SUBCASE("follows 1.2533 * 1.4826 * MAD / sqrt(n) and shrugs off an outlier") {
    // 21 samples 10.00, 10.01, ..., 10.20: median 10.10, MAD 0.05.
    std::vector<double> v;
    for (int i = 0; i <= 20; ++i) v.push_back(10.0 + 0.01 * i);
    const double se = gpulab::median_standard_error(v);
    CHECK(se == doctest::Approx(1.2533 * 1.4826 * 0.05 / std::sqrt(21.0)).epsilon(1e-9));

    // One sample a hundred thousand times too slow (a preempted run) barely moves it, where a
    // standard-deviation estimate would grow by orders of magnitude.
    v[3] = 1e6;
    const double with_outlier = gpulab::median_standard_error(v);
    CHECK(with_outlier > 0.8 * se);
    CHECK(with_outlier < 1.25 * se);
  }
}

TEST_CASE("median_round_ratio cancels a slow spell that a ratio of medians does not") {
  // Both codes take 10 ms; the machine runs 20% slow during rounds 2 to 4, and rounds alternate
  // S R, R S, ... so the slow spell catches three of the student's runs but two of the others'.
  const std::vector<double> student = {10, 12, 12, 12, 10};
  const std::vector<double> reference = {10, 12, 12, 10, 10};
  CHECK(gpulab::median(student) / gpulab::median(reference) == doctest::Approx(1.2));
  CHECK(gpulab::median_round_ratio(student, reference) == doctest::Approx(1.0));
  CHECK(gpulab::median_round_ratio({20, 30, 40}, {10, 10, 10}) == doctest::Approx(3.0));
  CHECK(gpulab::median_round_ratio({20, 30}, {10, 10, 10}) == doctest::Approx(2.5));
}

TEST_CASE("values_agree: the spread of a round's scored values against their median") {
  CHECK(gpulab::values_agree({}, 0.02));
  CHECK(gpulab::values_agree({1.5}, 0));
  CHECK(gpulab::values_agree({1.0, 1.01, 1.02}, 0.02));
  CHECK_FALSE(gpulab::values_agree({1.0, 1.01, 1.03}, 0.02));
  // Relative to the median, so a ratio of 0.5 needs half the absolute spread of one of 1.
  CHECK(gpulab::values_agree({0.5, 0.505}, 0.01));
  CHECK_FALSE(gpulab::values_agree({0.5, 0.51}, 0.01));
  // Exactly alike agree even at 0; anything else does not.
  CHECK(gpulab::values_agree({2.0, 2.0, 2.0}, 0));
  CHECK_FALSE(gpulab::values_agree({2.0, 2.0, 2.0000001}, 0));
  // A failed measurement never settles the rounds.
  CHECK_FALSE(gpulab::values_agree({1.0, NAN, 1.0}, 1.0));
  CHECK_FALSE(gpulab::values_agree({1.0, INFINITY}, 1.0));
  CHECK(gpulab::round_ratios({2, 6, 9}, {1, 3}) == std::vector<double>{2, 2});
}
