// The traced sort and find-starts of histogram.md's figure
// (handouts/figures/histogram/find_starts_trace.h): the handout's worked example, the figure's,
// and the empty bins before the first key and after the last.
#include "histogram/find_starts_trace.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using gpulab::find_starts_trace;
using V = std::vector<int>;

TEST_CASE("find-starts gives histogram.md section 3's starts and counts, empty bins included") {
  // 7 bins, the sorted keys 0 0 2 2 2 5, given out of order.
  const auto t = find_starts_trace({2, 0, 5, 2, 0, 2}, 7);
  CHECK(t.sorted == V{0, 0, 2, 2, 2, 5});
  CHECK(t.run_start == V{1, 0, 1, 0, 0, 1});
  // Boundary 2 writes bins 1 and 2, boundary 5 bins 3 to 5, boundary 6 (past the end) 6 and 7.
  CHECK(t.start == V{0, 2, 2, 5, 5, 5, 6, 6});
  CHECK(t.counts == V{2, 0, 3, 0, 0, 1, 0});
}

TEST_CASE("find-starts on the figure's 12 keys over 6 bins: empty bins first, inside and last") {
  const auto t = find_starts_trace({4, 2, 1, 4, 4, 2, 1, 1, 4, 2, 1, 4}, 6);
  CHECK(t.sorted == V{1, 1, 1, 1, 2, 2, 2, 4, 4, 4, 4, 4});
  CHECK(t.run_start == V{1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0});
  CHECK(t.start == V{0, 0, 4, 7, 7, 12, 12});
  CHECK(t.counts == V{0, 4, 3, 0, 5, 0});
  CHECK(t.keys == V{4, 2, 1, 4, 4, 2, 1, 1, 4, 2, 1, 4});
}

TEST_CASE("find-starts with no keys, one bin, and keys outside the bins") {
  const auto none = find_starts_trace({}, 3);
  CHECK(none.start == V{0, 0, 0, 0});
  CHECK(none.counts == V{0, 0, 0});
  const auto one = find_starts_trace({0, 0, 0}, 1);
  CHECK(one.start == V{0, 3});
  CHECK(one.counts == V{3});
  CHECK_THROWS_AS(find_starts_trace({0, 3}, 3), std::invalid_argument);
  CHECK_THROWS_AS(find_starts_trace({-1}, 3), std::invalid_argument);
  CHECK_THROWS_AS(find_starts_trace({}, 0), std::invalid_argument);
}
