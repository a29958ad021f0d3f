// What the dynamic loader reads of an ELF file to load it (ld.so(8)): its interpreter, the
// libraries it needs and where it asks for them to be looked for. library_closure.h follows
// these from a runner to every library it loads. Only the ELF header, the program headers, the
// dynamic segment and its string table are read (a driver library is tens of megabytes), each
// checked against the file's size, so a truncated or hostile file is refused, never trusted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpulab {

struct ElfDynamic {
  uint16_t machine = 0;              // e_machine: EM_X86_64, EM_AARCH64, ...
  std::string interpreter;           // PT_INTERP (a program's); empty for a library
  std::string soname;                // DT_SONAME (a library's)
  std::vector<std::string> needed;   // DT_NEEDED, in order
  std::vector<std::string> rpath;    // DT_RPATH's directories (ignored where DT_RUNPATH is)
  std::vector<std::string> runpath;  // DT_RUNPATH's directories
  bool no_default_lib = false;       // DF_1_NODEFLIB: neither the cache nor the system's dirs
};

// The dynamic-loading facts of `file`, a 64-bit little-endian ELF file (a statically linked one
// has none but its machine). Throws std::runtime_error naming the file where it cannot be read
// or is not such a file, or where anything it points to lies outside it.
ElfDynamic read_elf_dynamic(const std::filesystem::path& file);

// The machine of `file` where it is a 64-bit little-endian ELF file; nullopt for anything else
// (the loader passes over a file of another class or machine and looks on).
std::optional<uint16_t> elf64_machine(const std::filesystem::path& file);

}  // namespace gpulab
