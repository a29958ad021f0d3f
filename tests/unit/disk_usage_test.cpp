// Sizes in words (disk_usage.h) and the progress line's item in progress (progress.h), as the
// datasets command shows them.
#include "files/disk_usage.h"

#include <doctest/doctest.h>

#include <sstream>

#include "os/progress.h"
#include "test_util.h"

TEST_CASE("human_bytes counts in powers of 1000 with one decimal") {
  CHECK(gpulab::human_bytes(0) == "0 B");
  CHECK(gpulab::human_bytes(999) == "999 B");
  CHECK(gpulab::human_bytes(1000) == "1.0 kB");
  CHECK(gpulab::human_bytes(1500000) == "1.5 MB");
  CHECK(gpulab::human_bytes(999960) == "1.0 MB");  // never "1000.0 kB"
  CHECK(gpulab::human_bytes(1100000000) == "1.1 GB");
}

TEST_CASE("tree_bytes adds the regular files under a folder, links not followed") {
  test::TempDir dir;
  test::write_file(dir / "a" / "x.npy", std::string(100, 'x'));
  test::write_file(dir / "a" / "b" / "y.npy", std::string(23, 'y'));
  test::write_file(dir / "elsewhere", std::string(5000, 'z'));
  std::filesystem::create_symlink(dir / "elsewhere", dir / "a" / "link");
  CHECK(gpulab::tree_bytes(dir / "a") == 123);
  CHECK(gpulab::tree_bytes(dir / "a" / "x.npy") == 100);
  CHECK(gpulab::tree_bytes(dir / "missing") == 0);
}

TEST_CASE("the item in progress shows on the terminal line until one finishes, never in a log") {
  std::ostringstream tty_out, log_out;
  gpulab::Progress tty(tty_out, true, 2, 0);
  tty.started();
  tty.now("timing/big: 412.0 MB so far");
  CHECK(test::contains(tty_out.str(), "timing/big: 412.0 MB so far"));
  tty.finished("timing/big: 1.1 GB");
  const std::string after = tty_out.str().substr(tty_out.str().rfind('\r'));
  CHECK(test::contains(after, "1/2"));
  CHECK_FALSE(test::contains(after, "so far"));
  gpulab::Progress log(log_out, false, 2, 0);
  log.started();
  log.now("timing/big: 412.0 MB so far");
  log.finished("timing/big: 1.1 GB");
  CHECK(log_out.str() == "[1/2] timing/big: 1.1 GB\n");
}
