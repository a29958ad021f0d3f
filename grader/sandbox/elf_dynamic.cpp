#include "sandbox/elf_dynamic.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

namespace gpulab {

namespace {

// Bounds no real file comes near: a hostile one cannot make the reader allocate more.
constexpr uint16_t kMaxProgramHeaders = 4096;
constexpr uint64_t kMaxDynamicBytes = uint64_t{1} << 20;
constexpr uint64_t kMaxStringTableBytes = uint64_t{64} << 20;
constexpr uint64_t kMaxInterpreterBytes = 4096;

// An open file read at offsets, each read checked against its size.
class ElfFile {
 public:
  explicit ElfFile(const std::filesystem::path& path) : path_(path) {
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd_ < 0 || fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      if (fd_ >= 0) close(fd_);
      fd_ = -1;
      throw std::runtime_error("cannot read " + path.string() + " as a file");
    }
    size_ = static_cast<uint64_t>(st.st_size);
  }
  ~ElfFile() {
    if (fd_ >= 0) close(fd_);
  }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  std::runtime_error bad(const std::string& why) const {
    return std::runtime_error(path_.string() + " is not a 64-bit ELF file gpulab reads (" + why +
                              ")");
  }
  // `bytes` bytes at `offset`; `what` names them where they lie outside the file.
  std::string read(uint64_t offset, uint64_t bytes, const char* what) const {
    if (offset > size_ || bytes > size_ - offset)
      throw bad(std::string(what) + " lies outside the file");
    std::string out(bytes, '\0');
    for (uint64_t done = 0; done < bytes;) {
      const ssize_t n = pread(fd_, out.data() + done, bytes - done, offset + done);
      if (n <= 0) throw bad(std::string("cannot read its ") + what);
      done += static_cast<uint64_t>(n);
    }
    return out;
  }
  template <typename T>
  T read_as(uint64_t offset, const char* what) const {
    const std::string bytes = read(offset, sizeof(T), what);
    T t;
    std::memcpy(&t, bytes.data(), sizeof t);
    return t;
  }
  uint64_t size() const { return size_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

bool is_elf64_le(const Elf64_Ehdr& h) {
  return std::memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 && h.e_ident[EI_CLASS] == ELFCLASS64 &&
         h.e_ident[EI_DATA] == ELFDATA2LSB;
}

// A search path's directories (DT_RPATH, DT_RUNPATH): split at ':', empty entries dropped.
std::vector<std::string> split_path(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = std::min(s.find(':', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

ElfDynamic read_elf_dynamic(const std::filesystem::path& path) {
  const ElfFile f(path);
  const auto h = f.read_as<Elf64_Ehdr>(0, "ELF header");
  if (!is_elf64_le(h)) throw f.bad("not a 64-bit little-endian ELF file");
  ElfDynamic out;
  out.machine = h.e_machine;
  if (h.e_phnum == 0) return out;
  if (h.e_phentsize != sizeof(Elf64_Phdr) || h.e_phnum > kMaxProgramHeaders)
    throw f.bad("its program headers are not of the size or number an ELF file has");
  std::vector<Elf64_Phdr> segments(h.e_phnum);
  const std::string table =
      f.read(h.e_phoff, uint64_t{h.e_phnum} * sizeof(Elf64_Phdr), "program header table");
  std::memcpy(segments.data(), table.data(), table.size());

  const Elf64_Phdr* dynamic = nullptr;
  for (const Elf64_Phdr& p : segments) {
    if (p.p_type == PT_INTERP) {
      if (p.p_filesz > kMaxInterpreterBytes) throw f.bad("its interpreter's name is too long");
      const std::string name = f.read(p.p_offset, p.p_filesz, "interpreter's name");
      out.interpreter = name.substr(0, name.find('\0'));
    } else if (p.p_type == PT_DYNAMIC) {
      dynamic = &p;
    }
  }
  if (!dynamic) return out;
  if (dynamic->p_filesz > kMaxDynamicBytes) throw f.bad("its dynamic segment is too large");
  const std::string bytes = f.read(dynamic->p_offset, dynamic->p_filesz, "dynamic segment");
  std::vector<Elf64_Dyn> entries(bytes.size() / sizeof(Elf64_Dyn));
  std::memcpy(entries.data(), bytes.data(), entries.size() * sizeof(Elf64_Dyn));

  uint64_t strtab = 0, strsz = 0;
  bool has_strtab = false;
  for (const Elf64_Dyn& d : entries) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_STRTAB) {
      has_strtab = true;
      strtab = d.d_un.d_ptr;
    }
    if (d.d_tag == DT_STRSZ) strsz = d.d_un.d_val;
    if (d.d_tag == DT_FLAGS_1 && (d.d_un.d_val & DF_1_NODEFLIB)) out.no_default_lib = true;
  }
  if (!has_strtab) return out;
  if (strsz > kMaxStringTableBytes) throw f.bad("its dynamic string table is too large");
  // DT_STRTAB is an address: the file offset is where a loaded segment maps it from.
  uint64_t strtab_offset = 0;
  bool mapped = false;
  for (const Elf64_Phdr& p : segments)
    if (p.p_type == PT_LOAD && strtab >= p.p_vaddr && strtab - p.p_vaddr <= p.p_filesz &&
        strsz <= p.p_filesz - (strtab - p.p_vaddr)) {
      strtab_offset = p.p_offset + (strtab - p.p_vaddr);
      mapped = true;
      break;
    }
  if (!mapped) throw f.bad("its dynamic string table lies outside its loaded segments");
  const std::string strings = f.read(strtab_offset, strsz, "dynamic string table");
  const auto string_at = [&](uint64_t at) {
    const size_t end = at < strings.size() ? strings.find('\0', at) : std::string::npos;
    if (end == std::string::npos) throw f.bad("a dynamic entry's name lies outside its table");
    return strings.substr(at, end - at);
  };
  bool has_runpath = false;
  for (const Elf64_Dyn& d : entries) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) out.needed.push_back(string_at(d.d_un.d_val));
    if (d.d_tag == DT_SONAME) out.soname = string_at(d.d_un.d_val);
    if (d.d_tag == DT_RPATH) out.rpath = split_path(string_at(d.d_un.d_val));
    if (d.d_tag == DT_RUNPATH) {
      out.runpath = split_path(string_at(d.d_un.d_val));
      has_runpath = true;
    }
  }
  if (has_runpath) out.rpath.clear();  // the loader ignores DT_RPATH beside DT_RUNPATH
  return out;
}

std::optional<uint16_t> elf64_machine(const std::filesystem::path& path) {
  try {
    const ElfFile f(path);
    const auto h = f.read_as<Elf64_Ehdr>(0, "ELF header");
    if (!is_elf64_le(h)) return std::nullopt;
    return h.e_machine;
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

}  // namespace gpulab
