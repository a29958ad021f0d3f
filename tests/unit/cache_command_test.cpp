// The dataset cache's listing and clearing (cache_command.h): sizes per lab and dataset, a lab
// cleared alone, and a folder that is not gpulab's cache never emptied.
#include "cli/cache_command.h"

#include <doctest/doctest.h>

#include <sstream>

#include "test_util.h"

namespace {

namespace fs = std::filesystem;

const std::string kKeyA(64, 'a'), kKeyB(64, 'b');

// A cache with two scan entries of one dataset (two secrets), a binning dataset and bench
// outputs for scan.
void fill(const fs::path& cache) {
  test::write_file(cache / "datasets" / "scan" / "hidden" / "h1" / kKeyA / "input" / "x.npy",
                   std::string(1000, 'x'));
  test::write_file(cache / "datasets" / "scan" / "hidden" / "h1" / kKeyB / "input" / "x.npy",
                   std::string(500, 'x'));
  test::write_file(cache / "datasets" / "scan" / ".locks" / (kKeyA + ".lock"), "");
  test::write_file(cache / "datasets" / "binning" / "public" / "tiny" / kKeyA / "input" / "a.npy",
                   std::string(20, 'a'));
  test::write_file(cache / "bench" / "scan" / "exclusive" / "out.npy", std::string(7, 'o'));
}

}  // namespace

TEST_CASE("the cache is listed per lab and dataset, with sizes and entries") {
  test::TempDir dir;
  fill(dir / "cache");
  const gpulab::CacheListing l = gpulab::list_cache(dir / "cache");
  CHECK(l.bytes == 1527);
  REQUIRE(l.labs.size() == 2);
  CHECK(l.labs[0].id == "binning");
  CHECK(l.labs[1].id == "scan");
  CHECK(l.labs[1].bytes == 1507);  // its datasets and its bench outputs
  REQUIRE(l.labs[1].datasets.size() == 1);
  CHECK(l.labs[1].datasets[0].entries == 2);
  std::ostringstream out;
  gpulab::print_cache(l, out);
  CHECK(test::contains(out.str(), "hidden/h1"));
  CHECK(test::contains(out.str(), "1.5 kB (2 entries)"));
  std::ostringstream empty;
  gpulab::print_cache(gpulab::list_cache(dir / "nothing-here"), empty);
  CHECK(test::contains(empty.str(), "empty"));
}

TEST_CASE("clearing one lab leaves the others; clearing all keeps the folder") {
  test::TempDir dir;
  const fs::path cache = dir / "cache";
  fill(cache);
  CHECK_THROWS_WITH(gpulab::clear_cache(cache, "scna"), doctest::Contains("did you mean \"scan\""));
  CHECK(gpulab::clear_cache(cache, "scan") == 1507);
  CHECK_FALSE(fs::exists(cache / "datasets" / "scan"));
  CHECK_FALSE(fs::exists(cache / "bench" / "scan"));
  CHECK(fs::exists(cache / "datasets" / "binning" / "public" / "tiny"));
  CHECK(gpulab::clear_cache(cache, "") == 20);
  CHECK(fs::is_directory(cache));
  CHECK(fs::is_empty(cache));
  CHECK_THROWS_WITH(gpulab::clear_cache(cache, "../elsewhere"), doctest::Contains("not a lab id"));
  CHECK_THROWS_WITH(gpulab::clear_cache(cache, "scan"), doctest::Contains("empty"));
}

TEST_CASE("a folder that is not gpulab's cache is refused and left untouched") {
  test::TempDir dir;
  const fs::path home = dir / "home";
  fill(home);
  test::write_file(home / "thesis.tex", "months of work");
  CHECK(test::contains(gpulab::not_a_cache(home), "thesis.tex"));
  CHECK_THROWS_WITH(gpulab::clear_cache(home, ""), doctest::Contains("thesis.tex"));
  CHECK_THROWS(gpulab::clear_cache(home, "scan"));
  CHECK(fs::exists(home / "datasets" / "scan"));
  CHECK(test::read_file(home / "thesis.tex") == "months of work");
  CHECK(gpulab::not_a_cache(dir / "missing").empty());
  test::write_file(dir / "a-file", "x");
  CHECK_FALSE(gpulab::not_a_cache(dir / "a-file").empty());
}
