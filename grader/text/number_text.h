// Numbers as text, for messages, tables and figures: printf's formats without a buffer to size
// at every call, and fixed decimals without their trailing zeros.
#pragma once

#include <cstdio>
#include <string>

namespace gpulab {

// `values` in printf's `format` ("%.3g", "%.*f"), however long the text: sized before writing.
template <typename... Values>
std::string printf_text(const char* format, Values... values) {
  const int n = std::snprintf(nullptr, 0, format, values...);
  if (n <= 0) return "";
  std::string s(static_cast<size_t>(n), '\0');
  std::snprintf(s.data(), s.size() + 1, format, values...);
  return s;
}

// `v` with `decimals` digits after the point: 2.5 with 1 as "2.5", with 2 as "2.50".
inline std::string decimal_text(double v, int decimals) {
  return printf_text("%.*f", decimals, v);
}

// `v` to `decimals` digits after the point, trailing zeros and a bare point dropped: 2.50 as
// "2.5", 3.00 as "3", and -0.001 to 2 digits as "0", never "-0". The same value gives the same
// text, so figures redraw byte for byte.
inline std::string trimmed_decimal_text(double v, int decimals) {
  std::string s = decimal_text(v, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

}  // namespace gpulab
