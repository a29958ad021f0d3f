// grader/build/startup_policy.h: what of a submission would run before the CPU backend read its
// settings, from readelf's and nm's listings of its objects: on listings written out, and on
// objects the host compiler makes from each way of running early.
#include "build/startup_policy.h"

#include <doctest/doctest.h>

#include "test_util.h"
#include "tool_output.h"

namespace {

using gpulab::ElfSection;
using gpulab::NmSymbol;
using gpulab::startup_findings;
using test::contains;

// What readelf and nm say of `source` compiled by the host compiler (c++ -c).
std::vector<std::string> findings_of(const std::string& source) {
  test::TempDir dir;
  test::write_file(dir / "x.cpp", source);
  const auto object = (dir / "x.o").string();
  const auto tool = test::tool_output;
  tool({"c++", "-std=c++17", "-c", (dir / "x.cpp").string(), "-o", object});
  return startup_findings(gpulab::parse_readelf_sections(tool({"readelf", "-S", "-W", object})),
                          gpulab::parse_nm(tool({"nm", "-P", object})));
}

}  // namespace

TEST_CASE("readelf's section lines are read; its other lines are not") {
  const auto s = gpulab::parse_readelf_sections(
      "There are 3 section headers, starting at offset 0x1c8:\n\n"
      "Section Headers:\n"
      "  [Nr] Name              Type            Address          Off    Size   ES Flg Lk Inf Al\n"
      "  [ 0]                   NULL            0000000000000000 000000 000000 00      0   0  0\n"
      "  [ 5] .init_array.00101 INIT_ARRAY      0000000000000000 000060 000008 08  WA  0   0  8\n"
      "  [12] .text             PROGBITS        0000000000000000 000040 000000 00  AX  0   0  1\n"
      "Key to Flags:\n  W (write), A (alloc)\n");
  REQUIRE(s.size() == 4);  // the header line too, harmlessly (Name, Type)
  CHECK(s[2].name == ".init_array.00101");
  CHECK(s[2].type == "INIT_ARRAY");
  CHECK(s[3].name == ".text");
}

TEST_CASE("sections and symbols that run code early, or call the runtime's test hook") {
  const std::vector<ElfSection> sections = {
      {".text", "PROGBITS"},        {".init_array", "INIT_ARRAY"},
      {".rela.init_array", "RELA"}, {".init_array.00101", "INIT_ARRAY"},
      {".ctors.65434", "PROGBITS"}, {".preinit_array", "PREINIT_ARRAY"},
      {".init", "PROGBITS"},        {".early", "INIT_ARRAY"},
      {".other", "PREINIT_ARRAY"}};
  const std::vector<NmSymbol> symbols = {{"scan_int", 'T'},
                                         {"fast_copy", 'i'},
                                         {"_ZN10gpulab_sim6detail15reload_settingsEv", 'U'},
                                         {"_ZN10gpulab_sim8findingsEv", 'U'}};
  const auto found = startup_findings(sections, symbols);
  REQUIRE(found.size() == 8);
  CHECK(contains(found[0], "with a priority (section .init_array.00101)"));
  CHECK(contains(found[1], ".ctors.65434"));
  CHECK(contains(found[2], ".preinit_array"));
  CHECK(contains(found[3], ".init)"));
  CHECK(contains(found[4], ".early"));
  CHECK(contains(found[5], ".other"));
  CHECK(contains(found[6], "indirect function"));
  CHECK(contains(found[7], "reload_settings"));
  const std::string m = gpulab::describe_startup_findings("scan.cu", found);
  CHECK(contains(m, "scan.cu has code that would run before gpulab's CPU backend"));
  CHECK(contains(m, "ordinary constructors and static initializers are fine"));
}

TEST_CASE("the compiler's objects: each early way found; plain static initializers pass") {
  // A static object with a constructor, and a constructor function: after the runtime's.
  CHECK(findings_of("#include <cstdlib>\n"
                    "struct S { S() { unsetenv(\"X\"); } } s;\n"
                    "__attribute__((constructor)) void f() { unsetenv(\"X\"); }\n")
            .empty());
  const auto prioritized = findings_of(
      "#include <cstdlib>\n"
      "__attribute__((constructor(101))) void f() { unsetenv(\"X\"); }\n");
  REQUIRE(prioritized.size() == 1);
  CHECK(contains(prioritized[0], ".init_array.00101"));
  CHECK(
      findings_of("struct S { S(); } s __attribute__((init_priority(200)));\nS::S() {}\n").size() ==
      1);
  CHECK(findings_of("void f() {}\n"
                    "__attribute__((section(\".preinit_array\"), used)) void (*p)() = f;\n")
            .size() == 1);
  CHECK(findings_of("asm(\".section .early,\\\"aw\\\",@init_array\\n.quad 0\\n.previous\");\n")
            .size() == 1);
  CHECK(findings_of("extern \"C\" int g_impl() { return 1; }\n"
                    "extern \"C\" int (*g_resolve())() { return g_impl; }\n"
                    "extern \"C\" int g() __attribute__((ifunc(\"g_resolve\")));\n")
            .size() == 1);
  CHECK(findings_of("namespace gpulab_sim::detail { void reload_settings(); }\n"
                    "void f() { gpulab_sim::detail::reload_settings(); }\n")
            .size() == 1);
}
