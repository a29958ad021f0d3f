// Reading and writing NumPy .npy files (format versions 1-3, little-endian, C order), so that
// every dataset and every output can be opened in Python with numpy.load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
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
  std::vector<unsigned char> bytes;

  size_t count() const;
  std::string shape_string() const;  // "(16, 128, 128)"
  template <class T>
  const T* as() const {
    return reinterpret_cast<const T*>(bytes.data());
  }
  template <class T>
  T* as() {
    return reinterpret_cast<T*>(bytes.data());
  }
};

NpyArray read_npy(const std::filesystem::path& path);

// Reads a file that must hold exactly this dtype; a different one is an NpyError naming both.
NpyArray read_npy(const std::filesystem::path& path, DType expected);

// The same from a stream already open on the file's content (the grader opens a run's outputs
// itself, without following links: grader/run_output.h); `name` is what messages call it.
NpyArray read_npy(std::istream& in, const std::string& name, DType expected);

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
