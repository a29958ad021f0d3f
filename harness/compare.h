// Output comparison against the fp64 oracle, with the tolerance models below (lab.json's
// "tolerance"), and a diagnosis a student can act on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab {

// Sums: |got - expected| <= K * u * (sqrt(n_terms) * magnitude + position), where magnitude is
// the sum of the absolute values of the terms (so the bound follows cancellation-free error
// growth, not the possibly tiny result), and position, where the oracle gives it, is how much
// the sum moves when the output's own coordinates move by one rounding: the sum over terms of
// |q| * (|x| + |y| + |z|) / r^2 for a potential. (A compiler may fuse `i * h - x_a` into one
// fused multiply-add and so skip the rounding of the lattice coordinate i * h; both ways are
// honest, and near an atom they differ by far more than the arithmetic's own error.)
struct SumMagnitudeTolerance {
  double K = 4.0;
  double unit_roundoff = 0x1p-24;
  double n_terms = 1.0;
  double bound(double magnitude) const { return bound(magnitude, n_terms); }
  double bound(double magnitude, double terms, double position = 0) const;
};

// Per-element inputs of the bound, beside the magnitude; null where the tolerance has none.
struct PerElementBound {
  const double* terms = nullptr;     // each element's own n (overrides n_terms)
  const double* position = nullptr;  // each element's position sensitivity
  // A prefix sum (a scan): element k's n is the number of elements from its prefix's start to
  // k, k - start + 1 (for an exclusive scan one more than the terms it adds), where start is the
  // last k' <= k with heads[k'] != 0 (a segmented scan's head flags), or 0 without heads. Its
  // rounding error in any order of adds is k - start roundings, each relative to a partial sum of
  // at most `magnitude`: random in sign, they add like a random walk, about sqrt(n) u magnitude,
  // the sequential loop being the worst order (docs/PERF.md, "Scan tolerance calibration").
  // Overrides n_terms; not with `terms`.
  bool prefix = false;
  const uint8_t* heads = nullptr;
};

// Element i's bound under `tol` and `per_element`, as compare_sum_magnitude checks it; `start`
// is where its prefix begins (with per_element.prefix: the last k <= i with heads[k] != 0, or 0
// without heads; otherwise unused).
double element_bound(const double* magnitude, size_t i, size_t start,
                     const SumMagnitudeTolerance& tol, const PerElementBound& per_element);

// Every element's bound, in one loop in order (the error maps, grader/plot/error_map.h).
std::vector<double> sum_magnitude_bounds(const double* magnitude, size_t count,
                                         const SumMagnitudeTolerance& tol,
                                         const PerElementBound& per_element = {});

// An error as a fraction of its bound: a zero bound (no terms) demands an exact answer.
double error_over_bound(double err, double bound);

struct CompareResult {
  bool pass = false;
  size_t count = 0;
  size_t n_fail = 0;  // finite values outside the bound
  size_t n_nan = 0;   // NaN or infinity that the code computed
  // Of those, NaNs that carry a poison's payload (poison.h), so whence they came is known:
  size_t n_nan_output = 0;   // the output's own poison, changed (its sign): accumulated into
  size_t n_nan_scratch = 0;  // fresh device memory's (the CPU backend's): scratch never written
  size_t n_unwritten = 0;    // still holding the poison value
  // The failing element with the largest error relative to its bound (or the first NaN).
  size_t worst_index = 0;
  double worst_expected = 0, worst_got = 0, worst_bound = 0;
  double max_err_over_bound = 0;  // over all elements; < 1 means pass
  size_t first_unwritten = 0;
  std::string problem;  // shape or dtype mismatch; set means nothing else was compared
  bool exact = false;   // an integer output: n_fail counts values that differ at all
  // Set by comparisons of groups rather than single values (compare_segment_sets): the whole
  // message after the output's name.
  std::string summary;

  // One paragraph for a student: what failed, where (as [k][j][i] for this shape), by how much.
  std::string message(const std::string& output_name, const std::vector<size_t>& shape) const;
};

// The comparisons below spread over the machine's cores (parallel.h) in pieces of this many
// elements, each piece's result merged in order: they report exactly what one loop over the
// elements would (a timed sample's output runs to hundreds of millions of elements).
constexpr size_t kComparePiece = size_t{1} << 20;

CompareResult compare_sum_magnitude(const float* got, const double* expected,
                                    const double* magnitude, size_t count,
                                    const SumMagnitudeTolerance& tol,
                                    const PerElementBound& per_element = {});

// Integers, bit-exact: `expected` holds the oracle's int64 results reduced to 32 bits (so
// wrap-around is defined). An element still holding the poison word is "never written", unless
// that word is what was expected. The worst element is the first that differs.
CompareResult compare_exact(const int32_t* got, const int32_t* expected, size_t count);

// How compare_segment_sets names a segment in its messages: `noun` ("cell"), and, when `shape`
// is given, the coordinates of the segment's id in a C-ordered array of that shape ("cell
// [3][5][7] (id 1234)"); an id past the shape (an extra last segment) is named by the id alone.
struct SegmentNames {
  std::string noun = "segment";
  std::vector<size_t> shape;
};

// Integers grouped in segments, the order inside a segment being free (a cell's particles):
// segment s is the elements [starts[s], starts[s] + counts[s]) of both `got` and `expected` (the
// expected layout), and there the two must hold the same values as multisets. The segments must
// cover the `count` elements exactly once (else std::invalid_argument: the expected layout is
// broken, not the submission). n_fail counts the segments that differ; an element still holding
// the poison word is also counted as never written. The message names the first segment that
// differs, with both sets and what is missing and extra.
CompareResult compare_segment_sets(const int32_t* got, const int32_t* expected, size_t count,
                                   const int32_t* starts, const int32_t* counts, size_t n_segments,
                                   const SegmentNames& names = {});

// "[3][17][5]" for a flat index into a C-ordered array of this shape.
std::string index_string(size_t flat, const std::vector<size_t>& shape);

}  // namespace gpulab
