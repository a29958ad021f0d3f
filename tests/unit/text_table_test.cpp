// grader/text/text_table.h: columns as wide as their widest cell, counted in characters.
#include "text/text_table.h"

#include <doctest/doctest.h>

#include <stdexcept>

using gpulab::text_table;

TEST_CASE("a text table's columns are as wide as their widest cell") {
  const std::string t = text_table({{"part"}, {"ms", true}, {"note"}},
                                   {{"inclusive-float", "1.5", "right"}, {"a", "123.25", "x"}});
  CHECK(t ==
        "  part                 ms  note\n"
        "  inclusive-float     1.5  right\n"
        "  a                123.25  x\n");
}

TEST_CASE("a text table counts characters, not bytes, and quotes cells safely") {
  const std::string t = text_table({{"name"}, {"n", true}}, {{"\xc3\xbc", "1"}, {"ab", "2"}});
  // "ü" is one character wide: the "1" lines up under the heading's "n".
  CHECK(t == "  name  n\n  \xc3\xbc     1\n  ab    2\n");
  const std::string escaped = text_table({{"name"}}, {{"\x1b[31m"}});
  CHECK(escaped.find('\x1b') == std::string::npos);  // an escape reaches no terminal
}

TEST_CASE("a row of the wrong width is a programming error") {
  CHECK_THROWS_AS(text_table({{"a"}, {"b"}}, {{"only one"}}), std::logic_error);
}
