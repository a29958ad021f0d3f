// scan: the functions you implement, in scan.cu. Do not change this file: the grader builds
// your scan.cu against its own copy.
//
// A prefix sum of n >= 1 values:
//   inclusive:  out[k] = in[0] + in[1] + ... + in[k]
//   exclusive:  out[k] = in[0] + in[1] + ... + in[k-1], and out[0] = 0
// int sums wrap around modulo 2^32, as the hardware adds (do the adds in unsigned int: signed
// overflow is undefined in C++; the bits are the same). float sums are compared with an fp64
// oracle within K * u * sqrt(k + 1) * (|in[0]| + ... + |in[k]|): any order of adds that a
// parallel scan uses is fine, a lower precision is not.
//
// `in` and `out` are device pointers to n elements each and do not overlap; `in` must not be
// changed. `out` arrives filled with a poison value: every element must be written, and nothing
// outside it. Scratch memory (the block sums) is yours to allocate and free. On return the
// result must be complete (the grader synchronizes the device after your function).
#pragma once

enum class ScanKind { inclusive, exclusive };

// The work-efficient scan: each block scans its tile with the Brent-Kung up-sweep (a sum tree)
// and down-sweep, the block sums are scanned (recursively, so any n works) and added back.
void scan_int(const int* in, int* out, int n, ScanKind kind);
void scan_float(const float* in, float* out, int n, ScanKind kind);

// For comparison (handout, section 4): an inclusive int scan whose block scan is Hillis-Steele
// (log2(block) steps, each adding to every element: O(n log n) work), hierarchical as above.
void scan_int_hillis_steele(const int* in, int* out, int n);
