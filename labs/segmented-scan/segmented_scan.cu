// segmented-scan: your code. Implement the three functions declared in segmented_scan.h.
// `gpulab run segmented-scan` builds this file and checks it; handouts/segmented-scan.md says
// more.
#include "segmented_scan.h"

// TODO 1: a block-level segmented scan in shared memory: each thread first scans a few elements
// of its own (coarsening), then the block runs the work-efficient (Brent-Kung) up-sweep and
// down-sweep over the threads' (flag, sum) pairs with the segmented operator: OR the flags in
// the up-sweep, keep the original flags to restore the segments in the down-sweep.
// __syncthreads() between every two levels.
//
// TODO 2: the hierarchical scan for any n: each block writes its tile's (flag, sum) carry, the
// carries are scanned (the same segmented operator, one level up), and each block adds its
// carry-in to the elements of its tile that come before the tile's first head.
//
// TODO 3: the exclusive variant: shift, do not subtract (out[k] = in[k] removed from the
// inclusive result rounds differently, and a head must give exactly 0).
//
// TODO 4: SpMV from the scan: products values[k] * x[col_idx[k]], head flags at the row starts
// (row_ptr), a segmented inclusive scan, and y[r] = the scan's value at the last element of row
// r. Empty rows have no elements: write their 0 yourself.
void segmented_scan_inclusive(const float* in, const uint8_t* flags, float* out, int n) {}

void segmented_scan_exclusive(const float* in, const uint8_t* flags, float* out, int n) {}

void spmv_csr(CsrMatrix a, const float* x, float* y) {}
