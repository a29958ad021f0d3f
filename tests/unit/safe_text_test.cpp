// grader/text/safe_text.h: untrusted bytes made safe to quote (valid UTF-8, control characters
// escaped, carriage returns as newlines) and cut between characters.
#include "text/safe_text.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using gpulab::is_safe_text;
using gpulab::quote_head;
using gpulab::quote_tail;
using gpulab::safe_text;
using gpulab::utf8_head;
using gpulab::utf8_tail;

const std::string kBlock = "\xE2\x96\x88";        // U+2588 FULL BLOCK, 3 bytes
const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

TEST_CASE("safe_text keeps valid text, newlines and tabs as they are") {
  for (const std::string& text :
       {std::string("plain ASCII\n\tindented"), "gr\xC3\xBC\xC3\x9F" + kBlock,
        std::string("\xF0\x9F\x98\x80 emoji"), std::string()}) {
    CAPTURE(text);
    CHECK(safe_text(text) == text);
    CHECK(is_safe_text(text));
  }
}

TEST_CASE("safe_text replaces every byte that is not valid UTF-8 with U+FFFD") {
  CHECK(safe_text("a\xFF"
                  "b") == "a" + kReplacement + "b");
  CHECK(safe_text("\x80") == kReplacement);                     // a stray continuation
  CHECK(safe_text("\xC0\xAF") == kReplacement + kReplacement);  // overlong '/'
  CHECK(safe_text("\xED\xA0\x80") == kReplacement + kReplacement + kReplacement);  // surrogate
  CHECK(safe_text("\xF4\x90\x80\x80").find("\xF4") == std::string::npos);          // past U+10FFFF
  CHECK(safe_text(kBlock.substr(0, 2)) == kReplacement + kReplacement);            // cut short
  CHECK_FALSE(is_safe_text("a\xFF"));
}

TEST_CASE("safe_text escapes control characters, ANSI sequences and NUL included") {
  CHECK(safe_text("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(safe_text(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(safe_text("bell\x07 del\x7f") == "bell\\x07 del\\x7f");
  CHECK(safe_text("\xC2\x9B"
                  "2J") == "\\u009b2J");  // C1's CSI, which some terminals obey
  CHECK(safe_text("x\xE2\x80\xAEtxt.exe") == "x\\u202etxt.exe");  // right-to-left override
  CHECK_FALSE(is_safe_text("\x1b[0m"));
}

TEST_CASE("safe_text turns carriage returns into newlines, CRLF into one") {
  CHECK(safe_text("10%\r20%\r30%") == "10%\n20%\n30%");
  CHECK(safe_text("line\r\nnext") == "line\nnext");
  CHECK_FALSE(is_safe_text("a\rb"));
}

TEST_CASE("safe_text is idempotent: safe text passes through unchanged") {
  const std::string once = safe_text(std::string("\x1b[1m\xFF\r\0", 5) + kBlock);
  CHECK(is_safe_text(once));
  CHECK(safe_text(once) == once);
}

TEST_CASE("utf8_head and utf8_tail never split a character") {
  const std::string bar = kBlock + kBlock + kBlock;  // 9 bytes
  CHECK(utf8_head(bar, 9) == bar);
  CHECK(utf8_head(bar, 8) == kBlock + kBlock);
  CHECK(utf8_head(bar, 4) == kBlock);
  CHECK(utf8_head(bar, 2).empty());
  CHECK(utf8_tail(bar, 8) == kBlock + kBlock);
  CHECK(utf8_tail(bar, 4) == kBlock);
  CHECK(utf8_tail(bar, 2).empty());
  CHECK(utf8_head("abc", 2) == "ab");
  CHECK(utf8_tail("abc", 2) == "bc");
}

TEST_CASE("quote_tail keeps the end of a progress bar cut inside a character, as safe text") {
  std::string progress;
  for (int i = 0; i < 1000; ++i) progress += kBlock;
  progress += "\nSegmentation fault";
  for (size_t limit : {size_t{100}, size_t{101}, size_t{102}}) {
    CAPTURE(limit);
    const std::string q = quote_tail(progress, limit);
    CHECK(is_safe_text(q));
    CHECK(q.rfind("...", 0) == 0);
    CHECK(q.size() <= limit + 3);
    CHECK(q.find("Segmentation fault") != std::string::npos);
    CHECK(q.find(kReplacement) == std::string::npos);  // cut between characters, not inside
  }
  CHECK(quote_tail("short", 100) == "short");
}

TEST_CASE("quote_head keeps the start, escapes and all, within about its limit") {
  const std::string q = quote_head(std::string(50, '\x1b'), 20);
  CHECK(is_safe_text(q));
  CHECK(q.size() <= 23);
  CHECK(q.rfind("\\x1b", 0) == 0);
  CHECK(q.substr(q.size() - 3) == "...");
  CHECK(quote_head(kBlock + "x", 2) == "...");
}
