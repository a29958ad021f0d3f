// parse_make_prerequisites (grader/build/include_tree.h): the files a kept build's validity rests
// on, read from a compiler's -M rule as nvcc and gpulab-sim-cc write it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "build/include_tree.h"

using gpulab::parse_make_prerequisites;
using Files = std::vector<std::string>;

TEST_CASE("a -M rule's prerequisites, continued lines, escaped spaces and several rules") {
  CHECK(parse_make_prerequisites("") == Files{});
  CHECK(parse_make_prerequisites("scan.o: scan.cu scan.h\n") == Files{"scan.cu", "scan.h"});
  // g++'s layout: a target, then the prerequisites over continued lines.
  CHECK(parse_make_prerequisites("scan.o: /s/scan.cu /usr/include/stdc-predef.h \\\n"
                                 " /g/sim/runtime/include/gpulab_sim/sim.h \\\n"
                                 " /g/labs/scan/scan.h\n") ==
        Files{"/s/scan.cu", "/usr/include/stdc-predef.h",
              "/g/sim/runtime/include/gpulab_sim/sim.h", "/g/labs/scan/scan.h"});
  // A space in a folder's name, escaped; a colon inside a name is no rule's colon.
  CHECK(parse_make_prerequisites("a.o: /my\\ labs/a.cu /x/b:c.h\n") ==
        Files{"/my labs/a.cu", "/x/b:c.h"});
  // nvcc: a rule per pass, the same headers again; each is listed once, in order.
  CHECK(parse_make_prerequisites("a.o : a.cu a.h \\\n  b.h\na.o : a.cu \\\n  c.h a.h\n") ==
        Files{"a.cu", "a.h", "b.h", "c.h"});
  // Tabs separate as spaces do; no newline at the end.
  CHECK(parse_make_prerequisites("t:\ta.h\tb.h") == Files{"a.h", "b.h"});
}
