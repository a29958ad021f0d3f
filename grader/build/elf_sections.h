// The section names of an ELF file: what `gpulab dist` checks of each runner it ships (stripped:
// no symbol table; built by nvcc: a CUDA fat binary), and what the kit's tests check again.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpulab {

// The names of `file`'s sections, in file order. Throws std::runtime_error naming the file when
// it cannot be read or is not a 64-bit little-endian ELF file.
std::vector<std::string> elf_section_names(const std::filesystem::path& file);

// The sections that say what a runner is: a symbol table (".symtab": `strip` removes it) and the
// CUDA fat binary nvcc embeds (".nv_fatbin": kernels for each architecture, and PTX).
constexpr const char* kElfSymbolTable = ".symtab";
constexpr const char* kElfCudaFatBinary = ".nv_fatbin";

}  // namespace gpulab
