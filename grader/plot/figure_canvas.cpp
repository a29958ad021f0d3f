#include "plot/figure_canvas.h"

#include <cairo-ft.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "text/html_text.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

// The font's file under a data folder: where Debian's fonts-dejavu-core puts it.
constexpr const char* kFontFile = "fonts/truetype/dejavu/DejaVuSans.ttf";

// The data folders of the freedesktop.org base directory specification: XDG_DATA_DIRS, or its
// default where it is unset or empty. A machine with the font's package unpacked into a prefix
// (scripts/gpu-prefix.sh) names the prefix's share/ there.
std::vector<std::string> data_dirs() {
  const char* env = std::getenv("XDG_DATA_DIRS");
  const std::string dirs = env && *env ? env : "/usr/local/share:/usr/share";
  std::vector<std::string> out;
  for (size_t at = 0; at <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', at), dirs.size());
    if (end > at) out.push_back(dirs.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

[[noreturn]] void cairo_failed(cairo_status_t status, const char* what) {
  throw std::runtime_error(std::string("cairo: ") + what + ": " + cairo_status_to_string(status));
}

// The font face, made once and kept for the process: Cairo locks the FreeType face around each
// use, so threads may draw at once. Where the file is in no data folder, the error names the
// package (and the next call looks again).
cairo_font_face_t* load_font() {
  std::string tried;
  for (const std::string& dir : data_dirs()) {
    const fs::path file = fs::path(dir) / kFontFile;
    tried += (tried.empty() ? "" : ", ") + file.string();
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) continue;
    FT_Library library = nullptr;
    FT_Face face = nullptr;
    if (FT_Init_FreeType(&library) != 0) throw std::runtime_error("freetype: cannot start");
    if (FT_New_Face(library, file.c_str(), 0, &face) != 0) {
      FT_Done_FreeType(library);
      throw std::runtime_error("freetype: cannot read the font " + file.string());
    }
    cairo_font_face_t* font = cairo_ft_font_face_create_for_ft_face(face, FT_LOAD_NO_HINTING);
    if (const cairo_status_t s = cairo_font_face_status(font)) cairo_failed(s, "the font");
    return font;  // the face and its library live as long as the process
  }
  throw std::runtime_error(
      "the figures' font, DejaVu Sans, is not installed: none of " + tried +
      " exists (install Debian's fonts-dejavu-core; XDG_DATA_DIRS names the folders looked in)");
}

cairo_font_face_t* font() {
  static cairo_font_face_t* const face = load_font();
  return face;
}

// Grey anti-aliasing without hinting, whatever a surface's defaults: glyphs are placed where
// their outlines say, the same in the SVG and the PNG.
void set_font(cairo_t* cr) {
  cairo_set_font_face(cr, font());
  cairo_font_options_t* o = cairo_font_options_create();
  cairo_font_options_set_antialias(o, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options(cr, o);
  cairo_font_options_destroy(o);
}

void set_colour(cairo_t* cr, Rgb c) {
  cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
}

// A line's coordinate across it, moved so that a line of a whole number of pixels covers whole
// pixels (a 1-pixel line at y = 10 would be two half-grey rows, at 10.5 it is one).
double on_pixels(double c, double width) {
  return std::round(c - width / 2) + width / 2;
}

struct SurfaceFree {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextFree {
  void operator()(cairo_t* cr) const { cairo_destroy(cr); }
};
using Surface = std::unique_ptr<cairo_surface_t, SurfaceFree>;
using Context = std::unique_ptr<cairo_t, ContextFree>;

Surface checked(cairo_surface_t* s) {
  Surface out(s);
  if (const cairo_status_t status = cairo_surface_status(s)) cairo_failed(status, "a surface");
  return out;
}

cairo_status_t append(void* out, const unsigned char* data, unsigned int size) {
  static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), size);
  return CAIRO_STATUS_SUCCESS;
}

struct Reading {
  const std::string* bytes;
  size_t at;
};

cairo_status_t take(void* from, unsigned char* data, unsigned int size) {
  Reading& r = *static_cast<Reading*>(from);
  if (r.bytes->size() - r.at < size) return CAIRO_STATUS_READ_ERROR;
  std::memcpy(data, r.bytes->data() + r.at, size);
  r.at += size;
  return CAIRO_STATUS_SUCCESS;
}

// Cairo names the drawing's group after a count of the surfaces the process has made
// (<g id="surface7">), so the same figure drawn again would differ: it is always the first here.
void renumber_page(std::string& svg) {
  const std::string open = "<g id=\"surface";
  const size_t at = svg.find(open);
  if (at == std::string::npos) return;
  const size_t digits = at + open.size();
  svg.replace(digits, svg.find('"', digits) - digits, "1");
}

// Cairo sets the words as glyph outlines, which no search or screen reader finds: the figure's
// words go in as text too, its title (the first) as the SVG's <title>, all of them, in the order
// drawn, as its <desc>.
void add_words(std::string& svg, const std::vector<std::string>& words) {
  if (words.empty()) return;
  std::string desc;
  for (const std::string& w : words) desc += (desc.empty() ? "" : "\n") + html_escape(w);
  const size_t open = svg.find("<svg ");
  if (open == std::string::npos) return;
  const size_t end = svg.find('>', open);
  if (end == std::string::npos) return;
  svg.insert(end + 1,
             "\n<title>" + html_escape(words.front()) + "</title>\n<desc>" + desc + "</desc>");
}

}  // namespace

Canvas::Canvas(int width, int height, Rgb background)
    : width_(width), height_(height), background_(background) {
  if (width < 1 || height < 1 || width > 8192 || height > 8192)
    throw std::invalid_argument("a canvas is 1 to 8192 pixels a side");
}

void Canvas::rect(double x, double y, double w, double h, Rgb fill, std::optional<Rgb> outline) {
  shapes_.push_back({Shape::box, x, y, w, h, 0, fill, outline, {}, Anchor::start});
}

void Canvas::line(double x1, double y1, double x2, double y2, Rgb c, double width) {
  if (width == std::round(width)) {
    if (y1 == y2) y1 = y2 = on_pixels(y1, width);
    if (x1 == x2) x1 = x2 = on_pixels(x1, width);
  }
  shapes_.push_back({Shape::segment, x1, y1, x2, y2, width, c, {}, {}, Anchor::start});
}

void Canvas::text(double x, double y, const std::string& s, double size, Anchor anchor, Rgb c) {
  shapes_.push_back({Shape::label, x, y, 0, 0, size, c, {}, s, anchor});
}

std::vector<std::string> Canvas::words() const {
  std::vector<std::string> out;
  for (const Shape& s : shapes_)
    if (s.kind == Shape::label) out.push_back(s.words);
  return out;
}

void Canvas::paint(cairo_t* cr) const {
  set_font(cr);
  set_colour(cr, background_);
  cairo_paint(cr);
  for (const Shape& s : shapes_) {
    set_colour(cr, s.colour);
    switch (s.kind) {
      case Shape::box:
        cairo_rectangle(cr, s.x1, s.y1, s.x2, s.y2);
        cairo_fill(cr);
        if (s.outline && s.x2 > 1 && s.y2 > 1) {
          set_colour(cr, *s.outline);
          cairo_set_line_width(cr, 1);
          cairo_rectangle(cr, s.x1 + 0.5, s.y1 + 0.5, s.x2 - 1, s.y2 - 1);
          cairo_stroke(cr);
        }
        break;
      case Shape::segment:
        cairo_set_line_width(cr, s.size);
        cairo_move_to(cr, s.x1, s.y1);
        cairo_line_to(cr, s.x2, s.y2);
        cairo_stroke(cr);
        break;
      case Shape::label: {
        cairo_set_font_size(cr, s.size);
        cairo_text_extents_t e;
        cairo_text_extents(cr, s.words.c_str(), &e);
        const double shift = s.anchor == Anchor::middle ? e.x_advance / 2
                             : s.anchor == Anchor::end  ? e.x_advance
                                                        : 0;
        cairo_move_to(cr, s.x1 - shift, s.y1);
        cairo_show_text(cr, s.words.c_str());
        break;
      }
    }
  }
  if (const cairo_status_t status = cairo_status(cr)) cairo_failed(status, "drawing");
}

std::string Canvas::svg() const {
  std::string out;
  {
    const Surface surface =
        checked(cairo_svg_surface_create_for_stream(append, &out, width_, height_));
    cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
    {
      const Context cr(cairo_create(surface.get()));
      paint(cr.get());
    }
    cairo_surface_finish(surface.get());  // the stream gets the document's end
    if (const cairo_status_t s = cairo_surface_status(surface.get())) cairo_failed(s, "SVG");
  }
  renumber_page(out);
  add_words(out, words());
  return out;
}

std::string Canvas::png() const {
  const Surface surface = checked(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width_, height_));
  {
    const Context cr(cairo_create(surface.get()));
    paint(cr.get());
  }
  cairo_surface_flush(surface.get());
  std::string out;
  if (const cairo_status_t s = cairo_surface_write_to_png_stream(surface.get(), append, &out))
    cairo_failed(s, "PNG");
  return out;
}

double text_width(const std::string& s, double size) {
  const Surface surface = checked(cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1));
  const Context cr(cairo_create(surface.get()));
  set_font(cr.get());
  cairo_set_font_size(cr.get(), size);
  cairo_text_extents_t e;
  cairo_text_extents(cr.get(), s.c_str(), &e);
  if (const cairo_status_t status = cairo_status(cr.get())) cairo_failed(status, "measuring text");
  return e.x_advance;
}

int fitting_width(double content, const std::vector<WordsLine>& lines) {
  double width = content;
  for (const WordsLine& l : lines) width = std::max(width, 12 + text_width(l.words, l.size) + 12);
  return static_cast<int>(std::ceil(width));
}

Rgb RgbImage::at(int x, int y) const {
  const uint8_t* p = &rgb.at((static_cast<size_t>(y) * width + x) * 3);
  return {p[0], p[1], p[2]};
}

RgbImage decode_png(const std::string& bytes) {
  Reading from{&bytes, 0};
  const Surface surface = checked(cairo_image_surface_create_from_png_stream(take, &from));
  const cairo_format_t format = cairo_image_surface_get_format(surface.get());
  if (format != CAIRO_FORMAT_RGB24 && format != CAIRO_FORMAT_ARGB32)
    throw std::runtime_error("cairo: a PNG of neither RGB nor RGBA pixels");
  RgbImage image;
  image.width = cairo_image_surface_get_width(surface.get());
  image.height = cairo_image_surface_get_height(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  image.rgb.reserve(static_cast<size_t>(image.width) * image.height * 3);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      // A pixel is one native 32-bit word, 0xAARRGGBB (premultiplied: opaque here).
      uint32_t px;
      std::memcpy(&px, data + static_cast<size_t>(y) * stride + x * 4, 4);
      image.rgb.insert(image.rgb.end(), {static_cast<uint8_t>(px >> 16),
                                         static_cast<uint8_t>(px >> 8), static_cast<uint8_t>(px)});
    }
  return image;
}

}  // namespace gpulab
