// Colour maps for the figures: a sequential one for counts and magnitudes, a diverging one for
// signed values (blue below zero, white at zero, red above), and a red one for values past a
// limit (an error over its bound), which no colour of the sequential one resembles.
#pragma once

#include "plot/figure_canvas.h"

namespace gpulab {

// t in [0, 1] (clamped; NaN is 0): dark blue through teal and green to yellow.
Rgb sequential_colour(double t);
// t in [-1, 1] (clamped; NaN is 0): blue at -1, white at 0, red at 1.
Rgb diverging_colour(double t);
// t in [0, 1] (clamped; NaN is 0): bright red through to dark red.
Rgb alarm_colour(double t);

}  // namespace gpulab
