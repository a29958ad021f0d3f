// tests/calibration/scan_orders.h: every modelled order of adds is a scan. On small integers
// float addition is exact, so each order must give exactly the prefix sums (restarted at the
// heads for the segmented operator); a wrong carry, window or tile boundary shows as a wrong sum.
#include "../calibration/scan_orders.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using namespace gpulab::calibration;

std::vector<Order> orders() {
  std::vector<Order> v;
  for (const Carries c : {Carries::reduce_then_scan, Carries::chained, Carries::lookback})
    for (const int threads : {1, 4, 8})
      for (const int chunk : {1, 3, 16}) {
        if (threads * chunk < 2 && c == Carries::reduce_then_scan) continue;  // (it throws)
        Order o;
        o.threads = threads;
        o.chunk = chunk;
        o.carries = c;
        o.window = 3;
        o.random_window = chunk == 3;
        v.push_back(o);
      }
  return v;
}

template <class M>
void check_all(const std::vector<float>& values, const std::vector<bool>& heads) {
  std::vector<typename M::T> x;
  std::vector<float> want_inc, want_exc;
  float sum = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const bool head = heads.empty() ? false : heads[k];
    x.push_back(M::make(values[k], head));
    if (head) sum = 0;
    want_exc.push_back(sum);
    sum += values[k];
    want_inc.push_back(sum);
  }
  std::vector<typename M::T> before;
  std::vector<float> inc;
  for (const Order& o : orders()) {
    INFO("threads " << o.threads << ", chunk " << o.chunk << ", carries "
                    << static_cast<int>(o.carries));
    tiled_scan<M>(x, o, before, inc);
    for (size_t k = 0; k < x.size(); ++k) {
      CHECK(inc[k] == want_inc[k]);
      CHECK(M::exclusive(before[k], x[k]) == want_exc[k]);
    }
  }
  sequential_scan<M>(x, before, inc);
  CHECK(inc == want_inc);
}

std::vector<float> small_integers(size_t n) {
  std::vector<float> v(n);
  for (size_t k = 0; k < n; ++k) v[k] = static_cast<float>(static_cast<int>(k * 7 % 11) - 5);
  return v;
}

}  // namespace

TEST_CASE("every modelled order of adds gives the prefix sums, over many tiles") {
  for (const size_t n : {1u, 2u, 7u, 100u, 1000u}) check_all<Plain>(small_integers(n), {});
}

TEST_CASE("the segmented operator restarts each order's sums at the heads") {
  const std::vector<float> v = small_integers(300);
  std::vector<bool> heads(v.size(), false);
  for (const size_t h : {0u, 1u, 2u, 17u, 64u, 65u, 200u, 299u}) heads[h] = true;
  check_all<Segmented>(v, heads);
}

TEST_CASE("the dropped-carry bug drops the carries: tiles after the first start over") {
  const std::vector<float> x(8, 1.0f);
  Order o;
  o.threads = 2;
  o.chunk = 2;
  o.carries = Carries::dropped;
  std::vector<float> inc;
  std::vector<Plain::T> before;
  tiled_scan<Plain>(x, o, before, inc);
  CHECK(inc == std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4});
}

TEST_CASE("reduce-then-scan over tiles of one item is refused, not recursed into forever") {
  Order o;
  o.threads = 1;
  o.chunk = 1;
  std::vector<Plain::T> before;
  std::vector<float> inc;
  CHECK_THROWS_AS(tiled_scan<Plain>(std::vector<float>(3, 1.0f), o, before, inc),
                  std::invalid_argument);
}

TEST_CASE("to_half rounds to half precision, to nearest even") {
  CHECK(to_half(1.0f) == 1.0f);
  CHECK(to_half(1.0f + 0x1p-11f) == 1.0f);  // a tie: to the even neighbour
  CHECK(to_half(1.0f + 0x1p-10f) == 1.0f + 0x1p-10f);
  CHECK(to_half(0.1f) == 0.0999755859375f);  // 1638 * 2^-14
  CHECK(to_half(0x1p-20f) == 0x1p-20f);      // subnormal in half precision, still exact
  CHECK(to_half(3e-8f) == 0x1p-24f);         // below: on the 2^-24 grid
}
