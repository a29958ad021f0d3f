// grader/data/reference_time.h: the reference's CPU time on a dataset on the CPU backend, measured
// once and kept beside the dataset's entry, used only for what it was measured for.
#include "data/reference_time.h"

#include <doctest/doctest.h>

#include <cmath>

#include "test_util.h"

namespace {

using gpulab::DatasetDirs;
using gpulab::ReferenceRun;

// An entry as the dataset store lays it out: <entry>/input/meta.json, <entry>/expected.
DatasetDirs entry(const test::TempDir& dir, const std::string& meta) {
  const auto e = dir / "public" / "medium" / "0123abcd";
  test::write_file(e / "input" / "meta.json", meta);
  test::write_file(e / "expected" / "potential.npy", "x");
  return {"public", "medium", false, e / "input", e / "expected"};
}

// Every file under `root` with its content, to see that nothing in it changed.
std::string tree(const std::filesystem::path& root) {
  std::string out;
  for (const auto& f : std::filesystem::recursive_directory_iterator(root))
    if (f.is_regular_file()) out += f.path().string() + "=" + test::read_file(f.path()) + "\n";
  return out;
}

}  // namespace

TEST_CASE("the reference's time is measured once, beside the entry, which is left as it was") {
  test::TempDir dir;
  const DatasetDirs d = entry(dir, R"({"lab": "scatter-gather", "name": "medium"})");
  const std::string before = tree(d.input.parent_path());
  const ReferenceRun run{"gather", {}, "fnv1a64:00000000000000aa"};
  int measured = 0;
  const auto measure = [&] {
    ++measured;
    return 17.5;
  };
  CHECK_FALSE(gpulab::kept_reference_cpu_time(d, run).has_value());
  CHECK(gpulab::reference_cpu_time(d, run, measure) == 17.5);
  CHECK(gpulab::reference_cpu_time(d, run, measure) == 17.5);
  CHECK(measured == 1);
  CHECK(gpulab::kept_reference_cpu_time(d, run) == 17.5);
  CHECK(tree(d.input.parent_path()) == before);
  CHECK(std::filesystem::is_directory(gpulab::notes_dir(d)));
  CHECK(gpulab::notes_dir(d).parent_path() == d.input.parent_path().parent_path());
}

TEST_CASE("a time is kept per part, runner flags and reference build") {
  test::TempDir dir;
  const DatasetDirs d = entry(dir, R"({"name": "medium"})");
  int measured = 0;
  const auto measure = [&] { return 1.0 + measured++; };
  const ReferenceRun gather{"gather", {}, "fnv1a64:00000000000000aa"};
  CHECK(gpulab::reference_cpu_time(d, gather, measure) == 1);
  CHECK(gpulab::reference_cpu_time(d, {"scatter", {}, gather.reference}, measure) == 2);
  CHECK(gpulab::reference_cpu_time(d, {"gather", {"--call-twice"}, gather.reference}, measure) ==
        3);
  CHECK(gpulab::reference_cpu_time(d, {"gather", {}, "fnv1a64:00000000000000bb"}, measure) == 4);
  CHECK(gpulab::reference_cpu_time(d, gather, measure) == 1);
  CHECK(measured == 4);
}

TEST_CASE("a kept time is not used for another dataset, nor read from a broken file") {
  test::TempDir dir;
  DatasetDirs d = entry(dir, R"({"name": "medium", "seed": 1})");
  const ReferenceRun run{"gather", {}, "fnv1a64:00000000000000aa"};
  CHECK(gpulab::reference_cpu_time(d, run, [] { return 5.0; }) == 5);
  // The same folder holding another dataset (a store that reuses names): measured again.
  test::write_file(d.input / "meta.json", R"({"name": "medium", "seed": 2})");
  CHECK_FALSE(gpulab::kept_reference_cpu_time(d, run).has_value());
  CHECK(gpulab::reference_cpu_time(d, run, [] { return 6.0; }) == 6);
  // Whatever a broken file says is not read: measured again, and the file made whole.
  for (const auto& f : std::filesystem::directory_iterator(gpulab::notes_dir(d))) {
    if (f.path().extension() != ".json") continue;
    for (const char* broken :
         {"{\"key\": ", "[]", "{\"cpu_s\": 1}", "", "{\"key\": {}, \"cpu_s\": -1}"}) {
      test::write_file(f.path(), broken);
      CHECK_FALSE(gpulab::kept_reference_cpu_time(d, run).has_value());
    }
    CHECK(gpulab::reference_cpu_time(d, run, [] { return 7.0; }) == 7);
    CHECK(gpulab::kept_reference_cpu_time(d, run) == 7);
  }
}

TEST_CASE("a measurement that cannot be right is refused, not kept") {
  test::TempDir dir;
  const DatasetDirs d = entry(dir, R"({"name": "medium"})");
  const ReferenceRun run{"gather", {}, "fnv1a64:00000000000000aa"};
  for (const double wrong : {0.0, -1.0, static_cast<double>(NAN), 1e12})
    CHECK_THROWS_WITH_AS(gpulab::reference_cpu_time(d, run, [&] { return wrong; }),
                         doctest::Contains("cannot be right"), std::runtime_error);
  CHECK_FALSE(gpulab::kept_reference_cpu_time(d, run).has_value());
  // A dataset without its meta.json is not one the store made.
  std::filesystem::remove(d.input / "meta.json");
  CHECK_THROWS_WITH_AS(gpulab::reference_cpu_time(d, run, [] { return 1.0; }),
                       doctest::Contains("meta.json"), std::runtime_error);
}
