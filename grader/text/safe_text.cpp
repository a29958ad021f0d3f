#include "text/safe_text.h"

#include <cstdint>
#include <cstdio>

namespace gpulab {

namespace {

constexpr char32_t kInvalid = 0xFFFFFFFF;

bool continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// The character at s[i] and its length in bytes; kInvalid (length 1) where s[i] starts no
// valid UTF-8 sequence: a stray continuation byte, an overlong form, a surrogate, a code point
// past U+10FFFF, or a sequence cut short.
char32_t decode(std::string_view s, size_t i, size_t& length) {
  length = 1;
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return b0;
  size_t n;
  char32_t cp;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2, cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3, cp = b0 & 0x0F;
    if (b0 == 0xE0) low = 0xA0;   // overlong
    if (b0 == 0xED) high = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4, cp = b0 & 0x07;
    if (b0 == 0xF0) low = 0x90;   // overlong
    if (b0 == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return kInvalid;
  }
  if (i + n > s.size()) return kInvalid;
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (b < low || b > high) : !continuation(b)) return kInvalid;
    cp = (cp << 6) | (b & 0x3F);
  }
  length = n;
  return cp;
}

// Characters that a terminal or a text viewer would act on rather than show.
bool escaped(char32_t cp) {
  if (cp == '\n' || cp == '\t') return false;
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

void append_escape(std::string& out, char32_t cp) {
  char buf[16];
  if (cp < 0x80)
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  else
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  out += buf;
}

}  // namespace

std::string safe_text(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    size_t length;
    const char32_t cp = decode(bytes, i, length);
    if (cp == kInvalid) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else if (cp == '\r') {
      if (i + 1 >= bytes.size() || bytes[i + 1] != '\n') out += '\n';
    } else if (escaped(cp)) {
      append_escape(out, cp);
    } else {
      out.append(bytes.substr(i, length));
    }
    i += length;
  }
  return out;
}

bool is_safe_text(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t length;
    const char32_t cp = decode(text, i, length);
    if (cp == kInvalid || cp == '\r' || escaped(cp)) return false;
    i += length;
  }
  return true;
}

std::string_view utf8_head(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  // Back to the lead byte of the character the cut falls in (a sequence is at most 4 bytes).
  for (int k = 0; k < 3 && cut > 0 && continuation(static_cast<unsigned char>(text[cut])); ++k)
    --cut;
  return text.substr(0, cut);
}

std::string_view utf8_tail(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t start = text.size() - max_bytes;
  // On to the next lead byte: the character the cut falls in is left out.
  for (int k = 0;
       k < 3 && start < text.size() && continuation(static_cast<unsigned char>(text[start])); ++k)
    ++start;
  return text.substr(start);
}

std::string quote_head(std::string_view bytes, size_t max_bytes) {
  std::string s = safe_text(utf8_head(bytes, max_bytes));
  // Escapes make the text longer than the bytes it came from.
  const bool cut = bytes.size() > max_bytes || s.size() > max_bytes;
  if (s.size() > max_bytes) s = std::string(utf8_head(s, max_bytes));
  return cut ? s + "..." : s;
}

std::string quote_tail(std::string_view bytes, size_t max_bytes) {
  std::string s = safe_text(utf8_tail(bytes, max_bytes));
  const bool cut = bytes.size() > max_bytes || s.size() > max_bytes;
  if (s.size() > max_bytes) s = std::string(utf8_tail(s, max_bytes));
  return cut ? "..." + s : s;
}

}  // namespace gpulab
