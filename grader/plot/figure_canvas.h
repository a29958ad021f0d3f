// A figure as a list of shapes (filled rectangles, lines, text) on a canvas measured in pixels,
// written as SVG (the shapes, text included) and rasterized to RGB for PNG (rectangles and lines
// only: the PNG carries no text, the SVG does). Both are byte-deterministic: numbers are written
// with fixed precision and nothing depends on the time or the machine.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpulab {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

constexpr Rgb kBlack{0, 0, 0};
constexpr Rgb kWhite{255, 255, 255};
// The figures' shared colours: a note's text (subtitles, axis words), grid lines, and the red
// that marks a level or a value the caption speaks of.
constexpr Rgb kGrey{110, 110, 110};
constexpr Rgb kGrid{225, 225, 225};
constexpr Rgb kRed{190, 40, 40};

enum class Anchor { start, middle, end };

class Canvas {
 public:
  Canvas(int width, int height, Rgb background = kWhite);

  // A rectangle at (x, y) (top left) of size w × h, filled, with a 1-pixel outline if asked.
  void rect(double x, double y, double w, double h, Rgb fill, std::optional<Rgb> outline = {});
  void line(double x1, double y1, double x2, double y2, Rgb colour, double width = 1);
  // Text whose baseline starts, is centred or ends at (x, y): in the SVG only.
  void text(double x, double y, const std::string& s, double size = 12,
            Anchor anchor = Anchor::start, Rgb colour = kBlack);

  int width() const { return width_; }
  int height() const { return height_; }
  std::string svg() const;
  // Rows top to bottom, 3 bytes a pixel. A pixel is covered by a rectangle when its centre is
  // inside it, by a line when its centre is within half the line's width of the segment.
  std::vector<uint8_t> raster() const;

 private:
  struct Shape {
    enum Kind { box, segment, label } kind;
    double x1, y1, x2, y2, size;  // rect: x1, y1, width x2, height y2; line: the ends and width
    Rgb colour;
    std::optional<Rgb> outline;
    std::string words;
    Anchor anchor;
  };
  int width_, height_;
  Rgb background_;
  std::vector<Shape> shapes_;
};

}  // namespace gpulab
