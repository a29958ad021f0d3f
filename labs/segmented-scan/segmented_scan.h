// segmented-scan: the functions you implement, in segmented_scan.cu. Do not change this file: the
// grader builds your segmented_scan.cu against its own copy.
//
// A segmented scan is a prefix sum that starts again at the first element of every segment.
// Segments are marked by head flags: flags[i] = 1 marks element i as the first element of a
// segment, flags[i] = 0 continues the segment before it. Element 0 always starts a segment,
// whatever flags[0] holds. For each element k, with h the head of k's segment (the largest
// i <= k with flags[i] = 1, or 0):
//
//     inclusive:  out[k] = in[h] + in[h+1] + ... + in[k]
//     exclusive:  out[k] = in[h] + ... + in[k-1]        (0 at every head)
//
//     in     =  3  1  4  1  5  9  2  6
//     flags  =  1  0  0  1  0  0  0  1
//     incl.  =  3  4  8  1  6 15 17  6
//     excl.  =  0  3  4  0  1  6 15  0
//
// The flags are one byte each (uint8_t), not an int per element: a scan moves little more than
// its data, so its speed is the bytes it moves, and int flags would make every element cost 12
// bytes of traffic instead of 9 (read 4 + 1, write 4).
//
// All pointers are DEVICE pointers, allocated by cudaMalloc (256-byte aligned, so vector loads
// such as float4 and uchar4 are fine at any multiple of their size from the start). Every output
// arrives filled with NaN: every element must be written, and nothing outside the array. On
// return the work may still be running on the GPU in the default stream (the grader synchronizes
// the device before it reads the output), but nothing may be left to do on the CPU.
#pragma once

#include <cstdint>

// n >= 1 (up to 2^28 on the GPU). flags[i] is 0 or 1.
void segmented_scan_inclusive(const float* in, const uint8_t* flags, float* out, int n);
void segmented_scan_exclusive(const float* in, const uint8_t* flags, float* out, int n);

// A sparse matrix in compressed sparse row (CSR) form: row r holds the nonzeros
// values[row_ptr[r]] ... values[row_ptr[r+1] - 1], in the columns col_idx[the same range].
// row_ptr has n_rows + 1 entries, row_ptr[0] = 0, row_ptr[n_rows] = nnz, never decreasing; a row
// with row_ptr[r] == row_ptr[r+1] is empty (the first and the last row can be, and so can every
// row: nnz can be 0). 0 <= col_idx[k] < n_cols, ascending within each row. nnz < 2^31.
struct CsrMatrix {
  int n_rows, n_cols, nnz;
  const int* row_ptr;   // n_rows + 1 entries
  const int* col_idx;   // nnz entries
  const float* values;  // nnz entries
};

// y = A x: y[r] = sum over the nonzeros k of row r of values[k] * x[col_idx[k]]; an empty row
// gives exactly 0. Build it from the segmented scan (the handout says how): the products
// values[k] * x[col_idx[k]] are the scan's input, the row starts are its head flags, and the
// last element of each segment is the row's sum. x has n_cols elements, y has n_rows.
void spmv_csr(CsrMatrix a, const float* x, float* y);
