// Hostile to whoever reads its output: the host function prints ANSI escape sequences (clear
// the screen, move the cursor, set the terminal's title, colours), NUL bytes, bytes that are not
// UTF-8 (a lone continuation byte, an overlong encoding, a surrogate, 0xFF) and a right-to-left
// override, then fails. The grader quotes a failed run's output in the report: once such bytes
// made the report invalid UTF-8 (no report at all), and escapes would reach an instructor's
// terminal.
#include <unistd.h>

#include <cstdlib>

#include "scan.h"

void scan_int(const int*, int*, int, ScanKind) {
  static const char kHostile[] =
      "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b[31mRED\x1b[0m "
      "nul:\0\0 "
      "bad:\x80\xC0\xAF\xED\xA0\x80\xFF\xFE "
      "rlo:\xE2\x80\xAEgpj.exe\n";
  (void)!write(2, kHostile, sizeof kHostile - 1);
  std::abort();
}

void scan_float(const float*, float*, int, ScanKind) {}

void scan_int_hillis_steele(const int*, int*, int) {}
