// grader/sandbox/ld_so_cache.h: the loader's cache as ldconfig itself prints it, and caches written
// here in each of glibc's layouts, whole and cut short.
#include "sandbox/ld_so_cache.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <sstream>
#include <tuple>

#include "test_util.h"
#include "tool_output.h"

namespace {

namespace fs = std::filesystem;
using Entries = std::vector<std::pair<std::string, fs::path>>;

// ldconfig -p's entries: "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1", those
// of the types a glibc loader takes (ELF, libc6 with or without an architecture).
std::set<std::pair<std::string, fs::path>> listed_by_ldconfig() {
  std::set<std::pair<std::string, fs::path>> out;
  std::istringstream lines(
      test::tool_output({fs::exists("/sbin/ldconfig") ? "/sbin/ldconfig" : "ldconfig", "-p"}));
  for (std::string line; std::getline(lines, line);) {
    const size_t arrow = line.find(" => ");
    if (arrow == std::string::npos) continue;
    std::istringstream words(line.substr(0, arrow));
    std::string name, type;
    words >> name >> type;
    if (type.rfind("(libc6", 0) == 0 || type.rfind("(ELF", 0) == 0)
      out.emplace(name, line.substr(arrow + 4));
  }
  return out;
}

void put32(std::string& b, size_t at, uint32_t v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

// A cache in glibc's format: `entries` (flags, name, path), its strings after them.
std::string new_format(const std::vector<std::tuple<uint32_t, std::string, std::string>>& entries) {
  std::string b(48 + 24 * entries.size(), '\0');
  std::memcpy(b.data(), "glibc-ld.so.cache1.1", 20);
  put32(b, 20, static_cast<uint32_t>(entries.size()));
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& [flags, name, path] = entries[i];
    put32(b, 48 + 24 * i, flags);
    put32(b, 48 + 24 * i + 4, static_cast<uint32_t>(b.size()));
    b += name + '\0';
    put32(b, 48 + 24 * i + 8, static_cast<uint32_t>(b.size()));
    b += path + '\0';
  }
  return b;
}

}  // namespace

TEST_CASE("this machine's cache reads as ldconfig prints it") {
  const Entries entries = gpulab::read_ld_so_cache();
  REQUIRE(!entries.empty());
  const std::set<std::pair<std::string, fs::path>> read(entries.begin(), entries.end());
  CHECK(read == listed_by_ldconfig());
  bool libc = false;
  for (const auto& [name, path] : entries) libc = libc || (name == "libc.so.6" && fs::exists(path));
  CHECK(libc);
}

TEST_CASE("glibc's format, alone and after the old one; other types and short files skipped") {
  test::TempDir d;
  const auto read = [&](const std::string& bytes) {
    test::write_file(d / "ld.so.cache", bytes);
    return gpulab::read_ld_so_cache(d / "ld.so.cache");
  };
  const std::string cache = new_format({{0x0303, "libz.so.1", "/lib/x/libz.so.1"},
                                        {0x0002, "libold.so.1", "/lib/libold.so.1"},  // libc5
                                        {0x0001, "libelf.so", "/lib/libelf.so"},
                                        {0x0a03, "libarm.so", "/lib/a/libarm.so"}});
  const Entries expected = {{"libz.so.1", "/lib/x/libz.so.1"},
                            {"libelf.so", "/lib/libelf.so"},
                            {"libarm.so", "/lib/a/libarm.so"}};
  CHECK(read(cache) == expected);

  // The old format's table first (3 entries of 12 bytes after a 16-byte header, 52 bytes), the
  // new format's header at the next multiple of 8, its offsets from there.
  std::string old(56, '\0');
  std::memcpy(old.data(), "ld.so-1.7.0", 11);
  put32(old, 12, 3);
  CHECK(read(old + cache) == expected);

  CHECK(read(cache.substr(0, 60)).empty());  // its entries cut off
  CHECK(read("ld.so-1.7.0").empty());
  CHECK(read("not a cache at all, but long enough to hold a header of either kind....").empty());
  std::string lost = cache;
  put32(lost, 48 + 4, static_cast<uint32_t>(cache.size()));  // a name past the end
  CHECK(read(lost) == Entries(expected.begin() + 1, expected.end()));
  CHECK(gpulab::read_ld_so_cache(d / "missing").empty());
}
