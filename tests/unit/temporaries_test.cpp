// Files made beside their place (temporaries.h): removed when not renamed into place, by their
// guard or by the stop thread's remove_temporaries() while another thread still writes; the
// atomic file writer and the dataset store leave none behind on a failure.
#include "files/temporaries.h"

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "data/dataset_store.h"
#include "files/atomic_file.h"
#include "lab/lab_config.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;

// Entries of `dir`, recursively, whose name holds ".tmp".
int temporaries_in(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    n += e.path().filename().string().find(".tmp") != std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("a temporary is removed unless renamed into place") {
  test::TempDir dir;
  {
    gpulab::Temporary t(dir / "a.tmp");
    test::write_file(t.path(), "half");
  }
  CHECK_FALSE(fs::exists(dir / "a.tmp"));
  {
    gpulab::Temporary t(dir / "b.tmp");
    test::write_file(t.path(), "whole");
    t.rename_to(dir / "b");
  }
  CHECK(test::read_file(dir / "b") == "whole");
  CHECK(gpulab::remove_temporaries() == 0);  // nothing registered any more
}

TEST_CASE("remove_temporaries removes a folder another thread is still writing into") {
  test::TempDir dir;
  gpulab::Temporary t(dir / ".entry.tmp");
  fs::create_directories(t.path() / "input");
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      std::ofstream(t.path() / "input" / (std::to_string(i % 64) + ".npy")) << "data";
      std::this_thread::yield();
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(gpulab::remove_temporaries() == 1);
  CHECK_FALSE(fs::exists(t.path()));
  stop = true;
  writer.join();
  CHECK_FALSE(fs::exists(t.path()));  // the writer could not make it again
}

TEST_CASE("a failed atomic write leaves no temporary beside its target") {
  test::TempDir dir;
  fs::create_directories(dir / "report.json" / "in-the-way");  // a folder: the rename fails
  CHECK_THROWS(gpulab::write_file_atomically(dir / "report.json", "{}"));
  CHECK(temporaries_in(dir.path()) == 0);
  gpulab::write_file_atomically(dir / "ok.json", "{}");
  CHECK(test::read_file(dir / "ok.json") == "{}");
  CHECK(temporaries_in(dir.path()) == 0);
}

TEST_CASE("a dataset whose generation fails leaves no temporary in the store") {
  test::TempDir dir;
  const gpulab::LabConfig lab =
      gpulab::LabConfig::load(test::source_dir() / "labs" / "scatter-gather" / "lab.json");
  const gpulab::DatasetSpec bad{"bad", {{"nx", -1}}, 1, {}};
  CHECK_THROWS(gpulab::materialize(lab, lab.groups.at(0), bad, "", dir / "store"));
  CHECK(temporaries_in(dir.path()) == 0);
}
