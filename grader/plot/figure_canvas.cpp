#include "plot/figure_canvas.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "text/number_text.h"

namespace gpulab {

namespace {

// Fixed precision, so that the same figure gives the same bytes.
std::string num(double v) {
  return trimmed_decimal_text(v, 2);
}

std::string colour(Rgb c) {
  return printf_text("#%02x%02x%02x", c.r, c.g, c.b);
}

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
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
  shapes_.push_back({Shape::segment, x1, y1, x2, y2, width, c, {}, {}, Anchor::start});
}

void Canvas::text(double x, double y, const std::string& s, double size, Anchor anchor, Rgb c) {
  shapes_.push_back({Shape::label, x, y, 0, 0, size, c, {}, s, anchor});
}

std::string Canvas::svg() const {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width_) +
                    "\" height=\"" + num(height_) + "\" viewBox=\"0 0 " + num(width_) + " " +
                    num(height_) + "\" font-family=\"sans-serif\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"" + colour(background_) + "\"/>\n";
  for (const Shape& s : shapes_) {
    switch (s.kind) {
      case Shape::box:
        out += "<rect x=\"" + num(s.x1) + "\" y=\"" + num(s.y1) + "\" width=\"" + num(s.x2) +
               "\" height=\"" + num(s.y2) + "\" fill=\"" + colour(s.colour) + "\"";
        if (s.outline) out += " stroke=\"" + colour(*s.outline) + "\" stroke-width=\"1\"";
        out += "/>\n";
        break;
      case Shape::segment:
        out += "<line x1=\"" + num(s.x1) + "\" y1=\"" + num(s.y1) + "\" x2=\"" + num(s.x2) +
               "\" y2=\"" + num(s.y2) + "\" stroke=\"" + colour(s.colour) + "\" stroke-width=\"" +
               num(s.size) + "\"/>\n";
        break;
      case Shape::label: {
        const char* anchor = s.anchor == Anchor::start    ? "start"
                             : s.anchor == Anchor::middle ? "middle"
                                                          : "end";
        out += "<text x=\"" + num(s.x1) + "\" y=\"" + num(s.y1) + "\" font-size=\"" + num(s.size) +
               "\" text-anchor=\"" + anchor + "\" fill=\"" + colour(s.colour) + "\">" +
               xml_escaped(s.words) + "</text>\n";
        break;
      }
    }
  }
  return out + "</svg>\n";
}

std::vector<uint8_t> Canvas::raster() const {
  std::vector<uint8_t> px(static_cast<size_t>(width_) * height_ * 3);
  auto set = [&](int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    uint8_t* p = &px[(static_cast<size_t>(y) * width_ + x) * 3];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  };
  // The pixels whose centres (i + 0.5) lie in [lo, hi).
  auto first = [](double lo) { return static_cast<int>(std::ceil(lo - 0.5)); };
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) set(x, y, background_);
  for (const Shape& s : shapes_) {
    if (s.kind == Shape::box) {
      const int x0 = first(s.x1), x1 = first(s.x1 + s.x2), y0 = first(s.y1),
                y1 = first(s.y1 + s.y2);
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
          const bool edge = x == x0 || x == x1 - 1 || y == y0 || y == y1 - 1;
          set(x, y, s.outline && edge ? *s.outline : s.colour);
        }
    } else if (s.kind == Shape::segment) {
      const double half = s.size / 2, dx = s.x2 - s.x1, dy = s.y2 - s.y1;
      const double len2 = dx * dx + dy * dy;
      const int x0 = first(std::min(s.x1, s.x2) - half), x1 = first(std::max(s.x1, s.x2) + half);
      const int y0 = first(std::min(s.y1, s.y2) - half), y1 = first(std::max(s.y1, s.y2) + half);
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
          const double cx = x + 0.5, cy = y + 0.5;
          const double t =
              len2 > 0 ? std::clamp(((cx - s.x1) * dx + (cy - s.y1) * dy) / len2, 0.0, 1.0) : 0;
          const double ex = s.x1 + t * dx - cx, ey = s.y1 + t * dy - cy;
          if (ex * ex + ey * ey <= half * half) set(x, y, s.colour);
        }
    }
  }
  return px;
}

}  // namespace gpulab
