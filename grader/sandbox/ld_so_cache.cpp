#include "sandbox/ld_so_cache.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

namespace gpulab {

namespace {

// glibc's elf/cache.h: the old format's header and entries, then the new format's.
constexpr char kOldMagic[] = "ld.so-1.7.0";  // 12 bytes with its NUL, then nlibs
constexpr size_t kOldHeader = 16;
constexpr size_t kOldEntry = 12;  // flags, key, value
constexpr char kNewMagic[] = "glibc-ld.so.cache1.1";
constexpr size_t kNewHeader = 48;      // magic, version, nlibs, len_strings, flags, ...
constexpr size_t kNewEntry = 24;       // flags, key, value, osversion, hwcap
constexpr int32_t kTypeMask = 0x00ff;  // FLAG_TYPE_MASK
constexpr int32_t kElf = 0x0001;       // FLAG_ELF: any ELF library, no architecture given
constexpr int32_t kElfLibc6 = 0x0003;  // FLAG_ELF_LIBC6
constexpr size_t kMaxCacheBytes = size_t{64} << 20;

uint32_t u32_at(const std::string& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

}  // namespace

std::vector<std::pair<std::string, std::filesystem::path>> read_ld_so_cache(
    const std::filesystem::path& file) {
  std::vector<std::pair<std::string, std::filesystem::path>> out;
  std::error_code ec;
  const uintmax_t bytes = std::filesystem::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || bytes > kMaxCacheBytes || !in) return out;
  const std::string b{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

  // The new format's header: at the start, or after the old format's table, aligned to 8.
  size_t start = 0;
  if (b.size() >= kOldHeader && std::memcmp(b.data(), kOldMagic, sizeof kOldMagic - 1) == 0) {
    const uint64_t old_libs = u32_at(b, sizeof kOldMagic);
    start = static_cast<size_t>((kOldHeader + old_libs * kOldEntry + 7) / 8 * 8);
  }
  if (start > b.size() || b.size() - start < kNewHeader ||
      std::memcmp(b.data() + start, kNewMagic, sizeof kNewMagic - 1) != 0)
    return out;
  const uint64_t libs = u32_at(b, start + sizeof kNewMagic - 1);
  if (libs > (b.size() - start - kNewHeader) / kNewEntry) return out;
  // Names and paths are offsets from the new header's start, each ending in a NUL.
  const auto string_at = [&](uint32_t offset, std::string& s) {
    const size_t at = start + offset;
    const size_t end = at < b.size() ? b.find('\0', at) : std::string::npos;
    if (end == std::string::npos) return false;
    s = b.substr(at, end - at);
    return true;
  };
  for (uint64_t i = 0; i < libs; ++i) {
    const size_t e = start + kNewHeader + static_cast<size_t>(i) * kNewEntry;
    int32_t flags;
    std::memcpy(&flags, b.data() + e, sizeof flags);
    std::string name, path;
    // The loader takes plain ELF entries and glibc's of its own architecture
    // (_dl_cache_check_flags).
    if ((flags != kElf && (flags & kTypeMask) != kElfLibc6) || !string_at(u32_at(b, e + 4), name) ||
        !string_at(u32_at(b, e + 8), path) || name.empty() || path.empty())
      continue;
    out.emplace_back(name, path);
  }
  return out;
}

}  // namespace gpulab
