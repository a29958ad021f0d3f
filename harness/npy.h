// Reading and writing NumPy .npy files (format versions 1-3, little-endian, C order), so that
// every dataset and every output can be opened in Python with numpy.load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab {

enum class DType { f32, f64, i32, i64, u8 };

const char* dtype_name(DType t);  // "float32", ...
size_t dtype_size(DType t);

// Thrown for a file that is missing, truncated or not an .npy file we understand; what() names
// the file and the problem.
struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NpyArray {
  DType dtype = DType::f32;
  std::vector<size_t> shape;
  // The data of an array read into memory (read_npy), which its owner may change; empty for a
  // mapped one (map_npy). Read either kind through data() or as<T>().
  std::vector<unsigned char> bytes;

  size_t count() const;
  std::string shape_string() const;  // "(16, 128, 128)"
  const unsigned char* data() const { return mapped_ ? mapped_.get() : bytes.data(); }
  size_t size_bytes() const { return mapped_ ? mapped_size_ : bytes.size(); }
  bool mapped() const { return mapped_ != nullptr; }
  // Read-only even for an array in memory: a mapped array's pages are the file's (mapped
  // read-only), so a pointer to write through would crash; only `bytes` is writable.
  template <class T>
  const T* as() const {
    return reinterpret_cast<const T*>(data());
  }

 private:
  friend NpyArray map_npy(int fd, const std::string& name, DType expected);
  // The same on a file already open, from its start; `name` is what messages call it. For the
  // grader's files and for a run's outputs that reached the grader as sealed memory files
  // (harness/grader_channel.h), which nobody can change or shrink any more: mapping them is safe.
  NpyArray map_npy(int fd, const std::string& name, DType expected);

  // An .npy file's header for an array of `dtype` and `shape` (its data follows it), and the
  // size of that data in bytes.
  std::string npy_header(DType dtype, const std::vector<size_t>& shape);
  size_t npy_data_bytes(DType dtype, const std::vector<size_t>& shape);
  // The data within a mapping of the file, shared by every copy; the last one unmaps it.
  std::shared_ptr<const unsigned char> mapped_;
  size_t mapped_size_ = 0;
};

NpyArray read_npy(const std::filesystem::path& path);

// Reads a file that must hold exactly this dtype; a different one is an NpyError naming both.
NpyArray read_npy(const std::filesystem::path& path, DType expected);

// The same from a stream already open on the file's content (the grader opens a run's outputs
// itself, without following links: grader/run/run_output.h); `name` is what messages call it.
NpyArray read_npy(std::istream& in, const std::string& name, DType expected);

// The same checks as read_npy(path, expected), with the same messages, but the data stays in
// the file, mapped read-only, rather than copied into memory: for the large files the grader
// trusts (its dataset cache), which are read again and again and would otherwise cost a fresh
// allocation and a copy out of the page cache each time. Never for a run's output, which the
// run could change under the mapping: a file truncated while mapped makes reading it crash
// (SIGBUS), and the dataset cache never rewrites a file in place (datasets are renamed in whole).
NpyArray map_npy(const std::filesystem::path& path, DType expected);
// The same on a file already open, from its start; `name` is what messages call it. For the
// grader's files and for a run's outputs that reached the grader as sealed memory files
// (harness/grader_channel.h), which nobody can change or shrink any more: mapping them is safe.
NpyArray map_npy(int fd, const std::string& name, DType expected);

// An .npy file's header for an array of `dtype` and `shape` (its data follows it), and the
// size of that data in bytes.
std::string npy_header(DType dtype, const std::vector<size_t>& shape);
size_t npy_data_bytes(DType dtype, const std::vector<size_t>& shape);

void write_npy(const std::filesystem::path& path, DType dtype, const std::vector<size_t>& shape,
               const void* data);

template <class T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<float>() {
  return DType::f32;
}
template <>
constexpr DType dtype_of<double>() {
  return DType::f64;
}
template <>
constexpr DType dtype_of<int32_t>() {
  return DType::i32;
}
template <>
constexpr DType dtype_of<int64_t>() {
  return DType::i64;
}
template <>
constexpr DType dtype_of<uint8_t>() {
  return DType::u8;
}

template <class T>
void write_npy(const std::filesystem::path& path, const std::vector<size_t>& shape, const T* data) {
  write_npy(path, dtype_of<T>(), shape, data);
}

}  // namespace gpulab
