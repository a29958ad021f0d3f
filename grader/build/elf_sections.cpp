#include "build/elf_sections.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gpulab {

std::vector<std::string> elf_section_names(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto bad = [&](const std::string& why) {
    return std::runtime_error(file.string() + " is not a 64-bit ELF executable gpulab reads (" +
                              why + ")");
  };
  Elf64_Ehdr h;
  if (bytes.size() < sizeof h) throw bad("too short");
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) throw bad("no ELF magic");
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB)
    throw bad("not 64-bit little-endian");
  if (h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shstrndx >= h.e_shnum ||
      h.e_shoff > bytes.size() || h.e_shnum > (bytes.size() - h.e_shoff) / sizeof(Elf64_Shdr))
    throw bad("its section headers lie outside the file");
  const auto section = [&](size_t i) {
    Elf64_Shdr s;
    std::memcpy(&s, bytes.data() + h.e_shoff + i * sizeof s, sizeof s);
    return s;
  };
  const Elf64_Shdr names = section(h.e_shstrndx);
  if (names.sh_offset > bytes.size() || names.sh_size > bytes.size() - names.sh_offset)
    throw bad("its section names lie outside the file");
  const std::string table = bytes.substr(names.sh_offset, names.sh_size);
  std::vector<std::string> out;
  for (size_t i = 0; i < h.e_shnum; ++i) {
    const Elf64_Shdr s = section(i);
    if (s.sh_name >= table.size()) throw bad("a section name lies outside its table");
    out.emplace_back(table.c_str() + s.sh_name);
  }
  return out;
}

}  // namespace gpulab
