// PNG through libpng: 8-bit RGB, written without a tIME chunk or any other text, so that the
// same pixels give the same bytes; and read back (the figure tests decode what was written).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab {

struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // rows top to bottom, 3 bytes a pixel
};

// The PNG file's bytes. Throws std::runtime_error where libpng fails.
std::string png_bytes(const RgbImage& image);
// Throws std::runtime_error naming the file where it is not an 8-bit RGB PNG libpng can read.
RgbImage read_png(const std::filesystem::path& path);

}  // namespace gpulab
