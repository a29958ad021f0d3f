// histogram: your code. Implement the four functions declared in histogram.h.
// `gpulab run histogram` builds this file and checks it; handouts/histogram.md says more.
#include "histogram.h"

// TODO 1: the tree reduction. A kernel whose threads each sum a strided share of `in` (a
// grid-stride loop, in unsigned int), then combine the 32 sums of a warp with
// __shfl_down_sync (offsets 16, 8, 4, 2, 1), then the warps' sums of a block through shared
// memory; one sum per block. Combine the blocks' sums (a second launch over them, or one
// atomicAdd per block into an `out` you zeroed first). n == 0 must give 0.
void reduce_sum(const int* in, int n, int* out) {}

// TODO 2: zero `counts` (cudaMemset), then one atomicAdd(&counts[key], 1) per key.
void histogram_global(const int* keys, int n, int bins, int* counts) {}

// TODO 3: each block zeroes a histogram of `bins` ints in shared memory (extern __shared__,
// sized at launch), __syncthreads(), adds its keys with shared-memory atomicAdd,
// __syncthreads(), then adds each non-zero bin to `counts` with one global atomicAdd. When
// bins * sizeof(int) is more than the shared memory a block may have, use TODO 2's way.
void histogram_private(const int* keys, int n, int bins, int* counts) {}

// TODO 4: copy the keys into scratch and sort the copy (thrust::sort(thrust::device, ...)).
// One thread per sorted element i: a run of equal keys starts where sorted[i] differs from
// sorted[i - 1] (or i == 0) and ends where it differs from sorted[i + 1] (or i == n - 1); record
// each run's start and end under its key. A bin no key falls in (an EMPTY bin) has no run and
// gets no record, yet its count must be written too, as 0: zero the records first (or give an
// empty bin the next run's start). Then counts[b] = end[b] - start[b] for every bin.
void histogram_sort(const int* keys, int n, int bins, int* counts) {}
