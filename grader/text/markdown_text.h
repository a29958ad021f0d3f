// Text quoted into markdown safely: whatever a submission made a report quote (compiler output,
// its file names) is shown as written, and cannot break out of its place, start a link or an
// image, or carry HTML.
#pragma once

#include <string>

namespace gpulab {

// `line` as markdown text: every ASCII punctuation character markdown gives a meaning
// backslash-escaped, which CommonMark shows as itself, and line breaks made spaces, so the text
// stays one paragraph.
std::string markdown_text(const std::string& line);

// `text` in a fenced code block whose fence of backticks is longer than any run of backticks in
// it, so no line of it can close the block.
std::string markdown_code_block(const std::string& text);

// A test's message: its first line as a paragraph of text, the lines after it (details, quoted
// output) as a code block. Empty for an empty message.
std::string markdown_message(const std::string& message);

}  // namespace gpulab
