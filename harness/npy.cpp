#include "npy.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "fd_stream.h"
#include "unique_fd.h"

namespace gpulab {

namespace {

struct DTypeInfo {
  DType type;
  const char* descr;
  const char* name;
  size_t size;
};

constexpr DTypeInfo kTypes[] = {
    {DType::f32, "<f4", "float32", 4}, {DType::f64, "<f8", "float64", 8},
    {DType::i32, "<i4", "int32", 4},   {DType::i64, "<i8", "int64", 8},
    {DType::u8, "|u1", "uint8", 1},
};

const DTypeInfo& info(DType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i;
  throw std::logic_error("unknown dtype");
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
  throw NpyError(path.string() + ": " + why);
}

// Returns the text of a quoted value or tuple for `key` in the header dictionary.
std::string header_value(const std::string& header, const std::string& key,
                         const std::filesystem::path& path) {
  const std::string quoted = "'" + key + "'";
  size_t at = header.find(quoted);
  if (at == std::string::npos) fail(path, "header has no '" + key + "' entry");
  at = header.find(':', at + quoted.size());
  if (at == std::string::npos) fail(path, "header entry '" + key + "' has no value");
  ++at;
  while (at < header.size() && header[at] == ' ') ++at;
  if (at >= header.size()) fail(path, "header entry '" + key + "' has no value");
  size_t end;
  if (header[at] == '\'') {
    end = header.find('\'', at + 1);
    if (end == std::string::npos) fail(path, "unterminated string in header");
    return header.substr(at + 1, end - at - 1);
  }
  if (header[at] == '(') {
    end = header.find(')', at);
    if (end == std::string::npos) fail(path, "unterminated shape tuple in header");
    return header.substr(at, end - at + 1);
  }
  end = header.find_first_of(",}", at);
  if (end == std::string::npos) fail(path, "malformed header");
  return header.substr(at, end - at);
}

std::vector<size_t> parse_shape(const std::string& tuple, const std::filesystem::path& path) {
  if (tuple.size() < 2 || tuple.front() != '(' || tuple.back() != ')')
    fail(path, "shape '" + tuple + "' in header is not a tuple");
  std::vector<size_t> shape;
  std::string inner = tuple.substr(1, tuple.size() - 2);
  std::stringstream ss(inner);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    item = item.substr(b);
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(item.c_str(), &end, 10);
    if (end == item.c_str() || errno != 0 || item[0] == '-')
      fail(path, "bad dimension '" + item + "' in shape " + tuple);
    shape.push_back(static_cast<size_t>(v));
  }
  return shape;
}

}  // namespace

const char* dtype_name(DType t) {
  return info(t).name;
}
size_t dtype_size(DType t) {
  return info(t).size;
}

size_t NpyArray::count() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

std::string NpyArray::shape_string() const {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace {

// What an .npy file's header says: the array without its data, and where and how much data
// follows.
struct Header {
  NpyArray array;
  std::string descr;
  size_t data_offset = 0;  // from the start of the file
  size_t data_bytes = 0;   // what the shape needs
};

// Reads and checks the header at the start of `in`, leaving `in` at the data; `path` names the
// file in messages.
Header read_header(std::istream& in, const std::filesystem::path& path) {
  Header h;
  NpyArray& a = h.array;
  char magic[8];
  if (!in.read(magic, 8)) fail(path, "file is shorter than an .npy header");
  if (std::memcmp(magic, "\x93NUMPY", 6) != 0) fail(path, "not an .npy file (bad magic bytes)");
  const int major = static_cast<unsigned char>(magic[6]);
  size_t header_len = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) fail(path, "truncated header length");
    header_len = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) fail(path, "truncated header length");
    header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<size_t>(b[3]) << 24);
  } else {
    fail(path, "unsupported .npy format version " + std::to_string(major));
  }
  if (header_len > (1u << 20)) fail(path, "header length is implausibly large");
  std::string header(header_len, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header_len)))
    fail(path, "truncated header");

  h.data_offset = 8 + (major == 1 ? 2 : 4) + header_len;
  h.descr = header_value(header, "descr", path);
  const std::string& descr = h.descr;
  bool known = false;
  for (const auto& i : kTypes)
    if (descr == i.descr || (i.size == 1 && descr == "<u1")) {
      a.dtype = i.type;
      known = true;
    }
  if (!known)
    fail(path, "unsupported dtype '" + descr +
                   "' (gpulab reads little-endian float32, float64, int32, int64, uint8)");
  if (header_value(header, "fortran_order", path) != "False")
    fail(path, "Fortran-ordered arrays are not supported; save with numpy's default C order");
  a.shape = parse_shape(header_value(header, "shape", path), path);

  // The byte count, refused where it would wrap around (a header's claim need not fit memory).
  size_t want = dtype_size(a.dtype);
  for (const size_t d : a.shape) {
    if (d != 0 && want > std::numeric_limits<size_t>::max() / d)
      fail(path, "shape " + a.shape_string() + " is too large");
    want *= d;
  }
  h.data_bytes = want;
  return h;
}

[[noreturn]] void truncated(const Header& h, const std::filesystem::path& path) {
  fail(path, "truncated data: shape " + h.array.shape_string() + " needs " +
                 std::to_string(h.data_bytes) + " bytes of " + h.descr +
                 " but the file ends early");
}

[[noreturn]] void trailing(const Header& h, const std::filesystem::path& path) {
  fail(path, "file has trailing bytes after the data of shape " + h.array.shape_string());
}

// The array in `in`, an .npy file's content; `path` names it in messages.
NpyArray read_from(std::istream& in, const std::filesystem::path& path) {
  Header h = read_header(in, path);
  NpyArray& a = h.array;
  const size_t want = h.data_bytes;
  // A header that claims more than the file holds (a run's output is untrusted) fails before
  // anything is allocated where the stream can say how much is left (a file can)...
  if (const std::streampos here = in.tellg(); here != std::streampos(-1)) {
    in.seekg(0, std::ios::end);
    const std::streampos end = in.tellg();
    in.clear();
    in.seekg(here);
    if (end != std::streampos(-1) && static_cast<size_t>(end - here) < want) truncated(h, path);
  }
  // ... and otherwise as the data comes, read in steps rather than all at once.
  for (size_t got = 0; got < want;) {
    const size_t step = std::min(want - got, std::max(got, size_t{64} << 20));
    a.bytes.resize(got + step);
    if (!in.read(reinterpret_cast<char*>(a.bytes.data() + got), static_cast<std::streamsize>(step)))
      truncated(h, path);
    got += step;
  }
  if (in.peek() != std::char_traits<char>::eof()) trailing(h, path);
  return std::move(a);
}

NpyArray with_dtype(NpyArray a, const std::filesystem::path& path, DType expected) {
  if (a.dtype != expected)
    fail(path, std::string("holds ") + dtype_name(a.dtype) + " but " + dtype_name(expected) +
                   " was expected");
  return a;
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open file");
  return read_from(in, path);
}

NpyArray read_npy(const std::filesystem::path& path, DType expected) {
  return with_dtype(read_npy(path), path, expected);
}

NpyArray read_npy(std::istream& in, const std::string& name, DType expected) {
  return with_dtype(read_from(in, name), name, expected);
}

NpyArray map_npy(const std::filesystem::path& path, DType expected) {
  const UniqueFd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!file.valid()) fail(path, "cannot open file");
  return map_npy(file.get(), path.string(), expected);
}

NpyArray map_npy(int fd, const std::string& name, DType expected) {
  const std::filesystem::path path = name;
  FdStreamBuf buf(fd);  // the header, read from the same open file that is mapped
  std::istream in(&buf);
  if (::lseek(fd, 0, SEEK_SET) != 0)
    fail(path, std::string("cannot read file: ") + strerror(errno));
  Header h = read_header(in, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(path, std::string("cannot stat file: ") + strerror(errno));
  const size_t size = static_cast<size_t>(st.st_size);
  // The same checks, in the same order, as read_from's on the data.
  if (size < h.data_offset || size - h.data_offset < h.data_bytes) truncated(h, path);
  if (size - h.data_offset > h.data_bytes) trailing(h, path);
  NpyArray& a = h.array;
  // An empty array has nothing to map (and mmap refuses a length of 0): it stays in memory.
  if (h.data_bytes > 0) {
    // Read-only (NpyArray::as is const for that): a writable private mapping would be
    // copy-on-write, but MAP_POPULATE write-faults such a mapping, copying every page up front,
    // which is the very cost mapping avoids. MAP_POPULATE maps the whole file now, in one call,
    // rather than one fault at a time as the data is first read.
    void* at = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (at == MAP_FAILED) fail(path, std::string("cannot map file: ") + strerror(errno));
    const std::shared_ptr<const unsigned char> whole(
        static_cast<const unsigned char*>(at),
        [size](const unsigned char* p) { ::munmap(const_cast<unsigned char*>(p), size); });
    a.mapped_ = std::shared_ptr<const unsigned char>(whole, whole.get() + h.data_offset);
    a.mapped_size_ = h.data_bytes;
  }
  return with_dtype(std::move(a), path, expected);
}

std::string npy_header(DType dtype, const std::vector<size_t>& shape) {
  std::string dict =
      std::string("{'descr': '") + info(dtype).descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) {
    dict += std::to_string(shape[i]);
    dict += (shape.size() == 1 || i + 1 < shape.size()) ? "," : "";
    if (i + 1 < shape.size()) dict += " ";
  }
  dict += "), }";
  // Pad with spaces so that the data starts on a 64-byte boundary, ending the header in '\n'.
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  const char len[2] = {static_cast<char>(dict.size() & 0xff), static_cast<char>(dict.size() >> 8)};
  return std::string("\x93NUMPY\x01\x00", 8) + std::string(len, 2) + dict;
}

size_t npy_data_bytes(DType dtype, const std::vector<size_t>& shape) {
  size_t n = dtype_size(dtype);
  for (size_t d : shape) n *= d;
  return n;
}

void write_npy(const std::filesystem::path& path, DType dtype, const std::vector<size_t>& shape,
               const void* data) {
  const std::string header = npy_header(dtype, shape);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot create file");
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(static_cast<const char*>(data),
            static_cast<std::streamsize>(npy_data_bytes(dtype, shape)));
  if (!out) fail(path, "write failed (disk full?)");
}

}  // namespace gpulab
