#include "plot/png_file.h"

#include <png.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace gpulab {

namespace {

// libpng reports an error by longjmp to the setjmp of the function that called it (an exception
// cannot be thrown through its C frames): the message is kept here, and that function throws it
// once libpng's structs are freed. Between each setjmp and the calls that may jump there, no
// object with a destructor is made.
thread_local char last_error[256];

[[noreturn]] void fail(png_structp png, png_const_charp message) {
  std::snprintf(last_error, sizeof last_error, "libpng: %s", message);
  png_longjmp(png, 1);
}
void ignore_warning(png_structp, png_const_charp) {}

void png_append(png_structp png, png_bytep data, png_size_t size) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), size);
}
void flush(png_structp) {}

}  // namespace

std::string png_bytes(const RgbImage& image) {
  if (image.width < 1 || image.height < 1 ||
      image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
    throw std::runtime_error("png: the image's pixels do not match its size");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, fail, ignore_warning);
  if (!png) throw std::runtime_error("libpng: cannot make a write struct");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* p;
    png_infop* i;
    ~Guard() { png_destroy_write_struct(p, i); }
  } guard{&png, &info};
  if (!info) throw std::runtime_error("libpng: cannot make an info struct");
  std::string out;
  if (setjmp(png_jmpbuf(png))) throw std::runtime_error(last_error);
  png_set_write_fn(png, &out, png_append, flush);
  png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 9);
  png_write_info(png, info);
  for (int y = 0; y < image.height; ++y)
    png_write_row(png, image.rgb.data() + static_cast<size_t>(y) * image.width * 3);
  png_write_end(png, nullptr);
  return out;
}

RgbImage read_png(const std::filesystem::path& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) throw std::runtime_error("cannot open " + path.string());
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, fail, ignore_warning);
  if (!png) throw std::runtime_error("libpng: cannot make a read struct");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* p;
    png_infop* i;
    ~Guard() { png_destroy_read_struct(p, i, nullptr); }
  } guard{&png, &info};
  if (!info) throw std::runtime_error("libpng: cannot make an info struct");
  RgbImage image;
  if (setjmp(png_jmpbuf(png))) throw std::runtime_error(path.string() + ": " + last_error);
  png_init_io(png, file.get());
  png_read_info(png, info);
  if (png_get_bit_depth(png, info) != 8 || png_get_color_type(png, info) != PNG_COLOR_TYPE_RGB)
    png_error(png, "not an 8-bit RGB PNG");
  image.width = static_cast<int>(png_get_image_width(png, info));
  image.height = static_cast<int>(png_get_image_height(png, info));
  image.rgb.resize(static_cast<size_t>(image.width) * image.height * 3);
  for (int y = 0; y < image.height; ++y)
    png_read_row(png, image.rgb.data() + static_cast<size_t>(y) * image.width * 3, nullptr);
  png_read_end(png, nullptr);
  return image;
}

}  // namespace gpulab
