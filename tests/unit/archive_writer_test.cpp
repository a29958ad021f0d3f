// grader/files/archive_writer.h: the student kit's .tar.gz and the autograder's .zip hold exactly
// the files given, with their modes, and the same files give the same bytes.
#include "files/archive_writer.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <map>

#include "files/archive_reader.h"
#include "test_util.h"

namespace {

std::map<std::string, std::string> read_back(const std::filesystem::path& file,
                                             gpulab::ArchiveFormat format) {
  std::map<std::string, std::string> files;
  gpulab::ArchiveReader reader(file, format);
  gpulab::ArchiveEntry e;
  while (reader.next(e)) {
    REQUIRE(e.kind == gpulab::EntryKind::file);
    std::string data;
    REQUIRE(reader.read(1 << 20, data));
    files[e.path] = data;
  }
  return files;
}

const std::vector<gpulab::ArchiveFile> kFiles = {{"setup.sh", "#!/bin/sh\necho hi\n", true},
                                                 {"gpulab/labs/scan/scan.cu", "// stub\n", false},
                                                 {"gpulab/empty.txt", "", false}};

}  // namespace

TEST_CASE("a zip and a tar.gz round-trip through the reader the intake uses") {
  test::TempDir d;
  for (const auto& [name, format] : {std::pair{"a.zip", gpulab::ArchiveFormat::zip},
                                     std::pair{"a.tar.gz", gpulab::ArchiveFormat::tar_gz}}) {
    INFO(name);
    gpulab::write_archive(d / name, kFiles);
    const auto files = read_back(d / name, format);
    REQUIRE(files.size() == kFiles.size());
    for (const auto& f : kFiles) CHECK(files.at(f.path) == f.content);
  }
  CHECK_THROWS_WITH_AS(gpulab::write_archive(d / "a.rar", kFiles),
                       doctest::Contains(".zip or .tar.gz"), std::runtime_error);
}

TEST_CASE("the same files give the same archive, modes and all") {
  test::TempDir d;
  gpulab::write_archive(d / "1.tar.gz", kFiles);
  gpulab::write_archive(d / "2.tar.gz", kFiles);
  CHECK(test::read_file(d / "1.tar.gz") == test::read_file(d / "2.tar.gz"));
  // Unpacked by tar, setup.sh is executable and the stub is not.
  const auto out = d / "x";
  std::filesystem::create_directories(out);
  REQUIRE(std::system(("tar -xzf " + (d / "1.tar.gz").string() + " -C " + out.string()).c_str()) ==
          0);
  namespace fs = std::filesystem;
  CHECK((fs::status(out / "setup.sh").permissions() & fs::perms::owner_exec) != fs::perms::none);
  CHECK((fs::status(out / "gpulab/labs/scan/scan.cu").permissions() & fs::perms::owner_exec) ==
        fs::perms::none);
}
