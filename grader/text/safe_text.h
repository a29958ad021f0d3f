// Untrusted bytes (what a submission prints, its file names, what its runs write) as text that
// is safe to quote in a report or on a terminal: valid UTF-8, whatever the bytes were.
//  - a byte that does not belong to a valid UTF-8 sequence becomes U+FFFD;
//  - control characters become visible escapes: C0 other than newline and tab, and DEL, as
//    \xNN (so an ANSI escape sequence reaches no terminal: ESC[31m reads \x1b[31m), C1 and the
//    bidirectional overrides that reorder what a reader sees as \uNNNN;
//  - a carriage return becomes a newline (CRLF one newline), so that a progress bar redrawn
//    with \r reads as its successive lines;
//  - cuts fall between characters, never inside one.
// Safe text passes through unchanged, so quoting twice does no harm.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpulab {

// `bytes` as safe text (above).
std::string safe_text(std::string_view bytes);

// The longest start (end) of `text` of at most `max_bytes` bytes that splits no UTF-8 sequence
// of it (a sequence is whole when its lead byte is; cut text stays valid where it was).
std::string_view utf8_head(std::string_view text, size_t max_bytes);
std::string_view utf8_tail(std::string_view text, size_t max_bytes);

// At most about `max_bytes` of the start (end) of untrusted `bytes`, as safe text, with "..."
// where something was cut: the end of a crashed run's output says most, its start a compiler's.
std::string quote_head(std::string_view bytes, size_t max_bytes);
std::string quote_tail(std::string_view bytes, size_t max_bytes);

// Whether `text` is safe text: valid UTF-8 with no character safe_text would escape. For tests
// and the fuzz targets.
bool is_safe_text(std::string_view text);

}  // namespace gpulab
