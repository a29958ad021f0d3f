// grader/sandbox/elf_dynamic.h: what the loader reads of an ELF file, as readelf reads it, and
// files that point outside themselves refused with the file's name rather than read.
#include "sandbox/elf_dynamic.h"

#include <doctest/doctest.h>
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "test_util.h"
#include "tool_output.h"

namespace {

namespace fs = std::filesystem;
using test::contains;

// The names in readelf -d's lines of `tag` ("NEEDED", "SONAME"): "... Shared library: [name]".
std::vector<std::string> readelf_names(const fs::path& file, const std::string& tag) {
  std::vector<std::string> names;
  std::istringstream lines(test::tool_output({"readelf", "-d", "-W", file.string()}));
  for (std::string line; std::getline(lines, line);)
    if (contains(line, "(" + tag + ")"))
      names.push_back(line.substr(line.find('[') + 1, line.rfind(']') - line.find('[') - 1));
  return names;
}

// A shared library compiled here, which needs the C++ library and names a DT_RUNPATH.
fs::path library(const test::TempDir& d) {
  test::write_file(d / "lib.cpp", "#include <string>\nstd::string f() { return \"x\"; }\n");
  test::tool_output({"c++", "-shared", "-fPIC", (d / "lib.cpp").string(), "-o",
                     (d / "libx.so").string(), "-Wl,-soname,libx.so.1",
                     "-Wl,--enable-new-dtags,-rpath,/opt/a:$ORIGIN/b"});
  return d / "libx.so";
}

template <typename T>
T at(const std::string& bytes, size_t offset) {
  T t;
  std::memcpy(&t, bytes.data() + offset, sizeof t);
  return t;
}
template <typename T>
void put(std::string& bytes, size_t offset, const T& t) {
  std::memcpy(bytes.data() + offset, &t, sizeof t);
}

// The file offset of `lib`'s program header of type `type`.
size_t program_header(const std::string& lib, uint32_t type) {
  const auto h = at<Elf64_Ehdr>(lib, 0);
  for (size_t i = 0; i < h.e_phnum; ++i) {
    const size_t off = h.e_phoff + i * sizeof(Elf64_Phdr);
    if (at<Elf64_Phdr>(lib, off).p_type == type) return off;
  }
  FAIL("no program header of type " << type);
  return 0;
}

// The file offset of `lib`'s first dynamic entry tagged `tag`.
size_t dynamic_entry(const std::string& lib, int64_t tag) {
  const auto dyn = at<Elf64_Phdr>(lib, program_header(lib, PT_DYNAMIC));
  for (size_t off = dyn.p_offset; off < dyn.p_offset + dyn.p_filesz; off += sizeof(Elf64_Dyn))
    if (at<Elf64_Dyn>(lib, off).d_tag == tag) return off;
  FAIL("no dynamic entry tagged " << tag);
  return 0;
}

}  // namespace

TEST_CASE("a program's and a library's dynamic section, as readelf reads it") {
  test::TempDir d;
  const fs::path lib = library(d);
  const gpulab::ElfDynamic l = gpulab::read_elf_dynamic(lib);
  CHECK(l.needed == readelf_names(lib, "NEEDED"));
  CHECK(std::any_of(l.needed.begin(), l.needed.end(),
                    [](const std::string& n) { return contains(n, "libstdc++.so"); }));
  CHECK(l.soname == "libx.so.1");
  CHECK(l.runpath == std::vector<std::string>{"/opt/a", "$ORIGIN/b"});
  CHECK(l.rpath.empty());
  CHECK(l.interpreter.empty());
  CHECK(l.machine == gpulab::elf64_machine(lib));

  const gpulab::ElfDynamic sh = gpulab::read_elf_dynamic("/bin/sh");
  CHECK(sh.needed == readelf_names("/bin/sh", "NEEDED"));
  CHECK(fs::exists(sh.interpreter));
  CHECK(sh.machine == gpulab::read_elf_dynamic(sh.interpreter).machine);
}

TEST_CASE("what is not a 64-bit little-endian ELF file, or points outside itself, is refused") {
  test::TempDir d;
  const std::string good = test::read_file(library(d));
  const auto refused = [&](const std::string& bytes, const std::string& why) {
    const fs::path file = d / "bad.so";
    test::write_file(file, bytes);
    const std::string message = file.string() + " is not a 64-bit ELF file gpulab reads (" + why;
    CHECK_THROWS_WITH_AS(gpulab::read_elf_dynamic(file), doctest::Contains(message.c_str()),
                         std::runtime_error);
  };
  refused("#!/bin/sh\necho not a library, longer than an ELF header would be...........\n",
          "not a 64-bit little-endian ELF file");
  refused(good.substr(0, 40), "ELF header lies outside the file");
  std::string b = good;
  b[EI_CLASS] = ELFCLASS32;
  refused(b, "not a 64-bit little-endian ELF file");

  b = good;
  put(b, offsetof(Elf64_Ehdr, e_phoff), uint64_t{good.size()});
  refused(b, "program header table lies outside the file");
  b = good;
  put(b, offsetof(Elf64_Ehdr, e_phoff), ~uint64_t{0});  // offset + size wraps around
  refused(b, "program header table lies outside the file");

  b = good;
  put(b, program_header(b, PT_DYNAMIC) + offsetof(Elf64_Phdr, p_offset), uint64_t{1} << 40);
  refused(b, "dynamic segment lies outside the file");

  b = good;
  put(b, dynamic_entry(b, DT_STRTAB) + offsetof(Elf64_Dyn, d_un), uint64_t{1} << 50);
  refused(b, "its dynamic string table lies outside its loaded segments");

  b = good;
  put(b, dynamic_entry(b, DT_NEEDED) + offsetof(Elf64_Dyn, d_un), uint64_t{1} << 31);
  refused(b, "a dynamic entry's name lies outside its table");

  // The machine alone: nothing for what is not a 64-bit little-endian ELF file.
  test::write_file(d / "text", "hello");
  CHECK_FALSE(gpulab::elf64_machine(d / "text").has_value());
  CHECK_FALSE(gpulab::elf64_machine(d / "missing").has_value());
  CHECK_THROWS_AS(gpulab::read_elf_dynamic(d / "missing"), std::runtime_error);
}
