// scan: your code. Implement the three functions declared in scan.h.
// `gpulab run scan` builds this file and checks it; handouts/scan.md says more.
#include "scan.h"

// TODO 1: a block-scan kernel: each block loads its tile of the input into shared memory,
// runs the Brent-Kung up-sweep (build a sum tree in place), clears the root (exclusive) and
// runs the down-sweep, with __syncthreads() between the levels, then writes its tile's scan to
// `out` and the tile's total to a block-sums array. Elements past n count as 0.
//
// TODO 2: scan the block sums (call your scan recursively when there is more than one tile of
// them) and add each block's prefix back to its tile.
//
// TODO 3: write the three functions with it (a template over int and float avoids writing the
// kernels twice; for int, add in unsigned int so that wrap-around is defined).
void scan_int(const int* in, int* out, int n, ScanKind kind) {}

void scan_float(const float* in, float* out, int n, ScanKind kind) {}

// TODO 4 (section 4 of the handout): the same hierarchy with a Hillis-Steele block scan, to
// measure against your Brent-Kung one.
void scan_int_hillis_steele(const int* in, int* out, int n) {}
