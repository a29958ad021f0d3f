// GNU line markers in a student's source: `# 12 "file" 1` (also spelt %: or ??=, after
// comments, in a line continued by a backslash) is a directive g++ obeys in any source, not
// only in preprocessed output: flag 1 says "entering file", and the compiler's own list of
// the headers it opens (-H, include_tree.h) then shows that file and nests the real headers
// that follow under it. A student could so hide cub/device/device_scan.cuh under a
// thrust/sort.h that was never opened. Nobody writes one by hand, so the build refuses a file
// that holds one before it reads the list.
//
// The search errs towards finding one: a marker's text inside a comment, a raw string or an
// #if 0 block counts too, and a line that starts after the end of a comment is read both as
// the comment's end and as a line of its own.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

// The lines (from 1) of `source` where a line marker may start; none for an ordinary file.
std::vector<int> line_marker_lines(const std::string& source);

}  // namespace gpulab
