// A figure as a list of shapes (filled rectangles, lines, text) on a canvas measured in pixels,
// drawn by one function through Cairo onto an SVG surface and an image surface, so that the SVG
// and the PNG show the same drawing, text included. Text is set in DejaVu Sans (Debian's
// fonts-dejavu-core), read from its file rather than asked of the machine's font set-up, without
// hinting: the same figure gives the same bytes wherever the same Cairo, FreeType and font are
// installed (tests/figures/check_figures.py compares the handouts' figures byte for byte).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// cairo.h's name, declared here so that the header does not need it.
typedef struct _cairo cairo_t;

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

  // A rectangle at (x, y) (top left) of size w × h, filled, with a 1-pixel outline inside its
  // edge if asked.
  void rect(double x, double y, double w, double h, Rgb fill, std::optional<Rgb> outline = {});
  // A horizontal or vertical line of a whole number of pixels' width is moved by up to half a
  // pixel onto whole pixels, so that axes and grid lines are sharp in the PNG.
  void line(double x1, double y1, double x2, double y2, Rgb colour, double width = 1);
  // Text (UTF-8) whose baseline starts, is centred or ends at (x, y).
  void text(double x, double y, const std::string& s, double size = 12,
            Anchor anchor = Anchor::start, Rgb colour = kBlack);

  int width() const { return width_; }
  int height() const { return height_; }
  // The text set, in the order drawn: the words a reader finds in the figure.
  std::vector<std::string> words() const;
  // The file's bytes. Each throws std::runtime_error where Cairo fails or the font is missing.
  std::string svg() const;
  std::string png() const;  // 8-bit RGB

 private:
  struct Shape {
    enum Kind { box, segment, label } kind;
    double x1, y1, x2, y2, size;  // rect: x1, y1, width x2, height y2; line: the ends and width
    Rgb colour;
    std::optional<Rgb> outline;
    std::string words;
    Anchor anchor;
  };
  // The background and every shape in order: the one drawing both files are made from.
  void paint(cairo_t* cr) const;

  int width_, height_;
  Rgb background_;
  std::vector<Shape> shapes_;
};

// How far text of this size advances, in pixels, as Canvas::text sets it: for layouts that make
// room for their words.
double text_width(const std::string& s, double size);

// A line of words set from x = 12 (a figure's title and notes), at its size.
struct WordsLine {
  std::string words;
  double size;
};
// The width of a canvas that holds a drawing `content` pixels wide and each of `lines` with 12
// pixels to spare, whichever is wider.
int fitting_width(double content, const std::vector<WordsLine>& lines);

struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // rows top to bottom, 3 bytes a pixel
  Rgb at(int x, int y) const;
};

// A PNG's pixels, read by Cairo (the tests look at what was drawn). Throws std::runtime_error
// where the bytes are not a PNG Cairo can read.
RgbImage decode_png(const std::string& bytes);

}  // namespace gpulab
