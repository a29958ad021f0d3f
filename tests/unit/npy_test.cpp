// harness/npy.h: round trips for every dtype and rank, the 64-byte data alignment numpy
// expects, and error messages that name the file and say what to do.
#include "npy.h"

#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

#include "test_util.h"

namespace {

using gpulab::DType;
using gpulab::NpyArray;
using test::contains;
using test::TempDir;
namespace fs = std::filesystem;

size_t element_count(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

// Distinct values that exercise sign, fractions and the extremes of each type, so a byte-order
// or width mistake cannot round-trip by accident.
template <class T>
std::vector<T> sample_values(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    T x = static_cast<T>((i * 37 + 11) % 251);
    if constexpr (std::is_floating_point_v<T>) x = x * T(0.5) - T(60.25);
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) x = static_cast<T>(x - 125);
    v[i] = x;
  }
  if (n > 0) v[0] = std::numeric_limits<T>::max();
  if (n > 1) v[n - 1] = std::numeric_limits<T>::lowest();
  return v;
}

// The header length field of a version-1 .npy file (bytes 8 and 9, little-endian).
size_t header_length_v1(const std::string& file) {
  REQUIRE(file.size() >= 10);
  return static_cast<unsigned char>(file[8]) | (static_cast<unsigned char>(file[9]) << 8);
}

// A version-1 .npy file with this header dictionary, padded as numpy pads it, then `data`.
std::string npy_bytes(std::string dict, const std::string& data) {
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + data;
}

// The message of the NpyError that `read` throws, or none.
template <class Read>
std::optional<std::string> npy_error(const Read& read) {
  try {
    read();
  } catch (const gpulab::NpyError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// The message of the NpyError that reading `path` throws; fails the test when none is thrown.
// map_npy must refuse every file that read_npy refuses with the same message (where no dtype is
// expected, any will do for map_npy: a bad file fails before its dtype is compared).
std::string read_error(const fs::path& path, std::optional<DType> expected = std::nullopt) {
  const auto read = npy_error(
      [&] { return expected ? gpulab::read_npy(path, *expected) : gpulab::read_npy(path); });
  if (!read) FAIL("reading " << path << " did not throw NpyError");
  const auto mapped =
      npy_error([&] { return gpulab::map_npy(path, expected.value_or(DType::f32)); });
  CHECK(mapped == read);
  return read.value_or("");
}

template <class T>
void check_round_trip(const std::vector<size_t>& shape) {
  TempDir tmp;
  const fs::path file = tmp / "a.npy";
  const std::vector<T> values = sample_values<T>(element_count(shape));
  gpulab::write_npy(file, shape, values.data());

  const NpyArray a = gpulab::read_npy(file, gpulab::dtype_of<T>());
  CHECK(a.dtype == gpulab::dtype_of<T>());
  CHECK(a.shape == shape);
  REQUIRE(a.count() == values.size());
  REQUIRE(a.bytes.size() == values.size() * sizeof(T));
  CHECK(std::memcmp(a.bytes.data(), values.data(), a.bytes.size()) == 0);

  // Mapped, the same array without a copy (only an empty one stays in memory: nothing to map).
  const NpyArray m = gpulab::map_npy(file, gpulab::dtype_of<T>());
  CHECK(m.dtype == a.dtype);
  CHECK(m.shape == a.shape);
  CHECK(m.mapped() == !values.empty());
  CHECK(m.bytes.empty());
  REQUIRE(m.size_bytes() == a.bytes.size());
  if (m.size_bytes() > 0) CHECK(std::memcmp(m.as<T>(), values.data(), m.size_bytes()) == 0);

  // numpy pads the header so the data starts on a 64-byte boundary, and nothing follows it.
  const std::string bytes = test::read_file(file);
  const size_t data_offset = 10 + header_length_v1(bytes);
  CHECK(data_offset % 64 == 0);
  CHECK(bytes[data_offset - 1] == '\n');
  CHECK(bytes.size() == data_offset + values.size() * sizeof(T));
}

}  // namespace

TEST_CASE_TEMPLATE("npy round trip keeps dtype, shape and bytes", T, float, double, int32_t,
                   int64_t, uint8_t) {
  SUBCASE("0-d") {
    check_round_trip<T>({});
  }
  SUBCASE("1-d") {
    check_round_trip<T>({7});
  }
  SUBCASE("2-d") {
    check_round_trip<T>({3, 5});
  }
  SUBCASE("3-d") {
    check_round_trip<T>({2, 3, 4});
  }
  SUBCASE("empty dimension") {
    check_round_trip<T>({0, 4});
  }
  SUBCASE("long header") {
    check_round_trip<T>({1, 2, 3, 4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  }
}

TEST_CASE("npy map_npy's mapping lives as long as any copy of the array") {
  TempDir tmp;
  const fs::path file = tmp / "a.npy";
  const std::vector<int32_t> values = sample_values<int32_t>(5000);  // more than a page
  gpulab::write_npy(file, {values.size()}, values.data());
  auto original = std::make_unique<NpyArray>(gpulab::map_npy(file, DType::i32));
  REQUIRE(original->mapped());
  const NpyArray copy = *original;
  CHECK(copy.as<int32_t>() == original->as<int32_t>());  // shared, not copied
  original.reset();
  fs::remove(file);  // the mapping, not the name, keeps the data
  REQUIRE(copy.size_bytes() == values.size() * sizeof(int32_t));
  CHECK(std::memcmp(copy.as<int32_t>(), values.data(), copy.size_bytes()) == 0);
}

TEST_CASE("npy shape_string and dtype names follow numpy") {
  NpyArray a;
  a.shape = {7};
  CHECK(a.shape_string() == "(7,)");
  a.shape = {16, 128, 128};
  CHECK(a.shape_string() == "(16, 128, 128)");
  a.shape = {};
  CHECK(a.shape_string() == "()");
  CHECK(a.count() == 1);
  a.shape = {0, 4};
  CHECK(a.count() == 0);
  CHECK(std::string(gpulab::dtype_name(DType::f32)) == "float32");
  CHECK(std::string(gpulab::dtype_name(DType::i64)) == "int64");
  CHECK(gpulab::dtype_size(DType::f64) == 8);
  CHECK(gpulab::dtype_size(DType::u8) == 1);
}

TEST_CASE("npy reads a hand-written header with '<u1' and no trailing comma") {
  TempDir tmp;
  const fs::path file = tmp / "u1.npy";
  test::write_file(file, npy_bytes("{'descr': '<u1', 'fortran_order': False, 'shape': (3,)}",
                                   std::string("\x01\x02\xff", 3)));
  const NpyArray a = gpulab::read_npy(file, DType::u8);
  REQUIRE(a.shape == std::vector<size_t>{3});
  CHECK(a.as<uint8_t>()[2] == 255);
}

TEST_CASE("npy errors name the file and the problem") {
  TempDir tmp;
  const std::string floats(6 * sizeof(float), '\0');
  const std::string f4_2x3 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

  SUBCASE("missing file") {
    const fs::path file = tmp / "missing.npy";
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "cannot open"));
  }
  SUBCASE("bad magic") {
    const fs::path file = tmp / "zip.npy";
    test::write_file(file, std::string("PK\x03\x04 this is a zip archive, not numpy", 40));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "not an .npy file"));
  }
  SUBCASE("truncated data") {
    const fs::path file = tmp / "short.npy";
    test::write_file(file, npy_bytes(f4_2x3, floats.substr(4)));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "truncated"));
    CHECK(contains(msg, "(2, 3)"));
    CHECK(contains(msg, "24 bytes"));
  }
  SUBCASE("a shape that is not a tuple (found by fuzzing: it read out of range)") {
    const fs::path file = tmp / "no-tuple.npy";
    test::write_file(file, npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': }", ""));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "is not a tuple"));
  }
  SUBCASE("a shape whose size wraps around (found by fuzzing: read as an empty array)") {
    const fs::path file = tmp / "huge.npy";
    test::write_file(
        file,
        npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
                  ""));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, "is too large"));
  }
  SUBCASE("trailing bytes") {
    const fs::path file = tmp / "long.npy";
    test::write_file(file, npy_bytes(f4_2x3, floats + "x"));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "trailing bytes"));
  }
  SUBCASE("unsupported dtype") {
    const fs::path file = tmp / "complex.npy";
    test::write_file(
        file, npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", floats));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "unsupported dtype '<c8'"));
    CHECK(contains(msg, "float32"));  // the hint lists what is supported
  }
  SUBCASE("Fortran order") {
    const fs::path file = tmp / "fortran.npy";
    test::write_file(
        file, npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", floats));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "Fortran"));
    CHECK(contains(msg, "C order"));
  }
  SUBCASE("big-endian") {
    const fs::path file = tmp / "big.npy";
    test::write_file(
        file, npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", floats));
    const std::string msg = read_error(file);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "'>f4'"));
    CHECK(contains(msg, "little-endian"));
  }
  SUBCASE("dtype mismatch") {
    const fs::path file = tmp / "f64.npy";
    const std::vector<double> v = {1.0, 2.0};
    gpulab::write_npy(file, {2}, v.data());
    const std::string msg = read_error(file, DType::f32);
    INFO(msg);
    CHECK(contains(msg, file.string()));
    CHECK(contains(msg, "float64"));
    CHECK(contains(msg, "float32"));
    CHECK_NOTHROW(gpulab::read_npy(file, DType::f64));
  }
}
