// os/background_work.h: tasks run beside the caller, at most the limit at once; wait() returns
// once all have ended and rethrows the first one's error in the order added.
#include "os/background_work.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace gpulab {

namespace {

using std::chrono::milliseconds;

}  // namespace

TEST_CASE("background work runs every task beside the caller, within its limit") {
  BackgroundWork work(3);
  std::atomic<int> now{0}, most{0}, done{0};
  for (int i = 0; i < 12; ++i)
    work.add([&] {
      const int n = ++now;
      for (int m = most.load(); n > m && !most.compare_exchange_weak(m, n);) {
      }
      std::this_thread::sleep_for(milliseconds(20));
      --now;
      ++done;
    });
  CHECK(work.busy());  // the caller goes on while they run
  work.wait();
  CHECK_FALSE(work.busy());
  CHECK(done == 12);
  CHECK(most <= 3);
  CHECK(most > 1);  // side by side, not one after another
}

TEST_CASE("background work: wait() rethrows the first error in the order added, once") {
  BackgroundWork work(4);
  std::atomic<int> done{0};
  work.add([&] {
    std::this_thread::sleep_for(milliseconds(60));  // ends last, but was added first
    throw std::runtime_error("first");
  });
  work.add([] { throw std::runtime_error("second"); });
  work.add([&] { ++done; });
  work.settle();  // waits, and keeps the errors for wait()
  CHECK_FALSE(work.busy());
  CHECK(done == 1);
  std::string caught;
  try {
    work.wait();
  } catch (const std::runtime_error& e) {
    caught = e.what();
  }
  CHECK(caught == "first");
  CHECK(done == 1);            // a task that threw stops no other
  CHECK_NOTHROW(work.wait());  // told once
  work.add([&] { ++done; });   // usable again
  work.wait();
  CHECK(done == 2);
}

TEST_CASE("background work: a task that is not a std::exception still reaches wait()") {
  struct NotAnError {};
  BackgroundWork work;
  work.add([] { throw NotAnError{}; });
  CHECK_THROWS_AS(work.wait(), NotAnError);
}

TEST_CASE("background work: leaving waits for what still runs") {
  std::atomic<int> done{0};
  {
    BackgroundWork work(2);
    for (int i = 0; i < 4; ++i)
      work.add([&] {
        std::this_thread::sleep_for(milliseconds(15));
        ++done;
      });
    work.add([] { throw std::runtime_error("dropped"); });
  }
  CHECK(done == 4);
}

}  // namespace gpulab
