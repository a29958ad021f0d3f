// histogram: the functions you implement, in histogram.cu. Do not change this file: the grader
// builds your histogram.cu against its own copy.
//
// Two many-to-one and many-to-many reductions: the sum of n values, and the histogram of n keys.
//
// THE SUM. out[0] = in[0] + in[1] + ... + in[n-1] for n >= 0 values (0 when n == 0). int sums
// wrap around modulo 2^32, as the hardware adds (add in unsigned int: signed overflow is
// undefined in C++; the bits are the same), so any order of adds gives the same result, and the
// grader compares it exactly.
//
// THE HISTOGRAM. For n >= 0 keys, each in [0, bins), and 1 <= bins <= 2^24:
//     counts[b] = the number of i with keys[i] == b,   for b = 0 .. bins - 1,
// so a bin no key falls in holds 0 (it must still be written), and the counts add up to n.
//
// THE POINTERS. All are DEVICE pointers (cudaMalloc'd); `in` and `keys` must not be changed.
// Every output arrives filled with a poison value (it is NOT zeroed): every element must be
// written, and nothing outside it. Scratch memory is yours to allocate; keeping it between calls
// (in statics) saves the time of cudaMalloc in timed runs. On return the work may still be
// running on the GPU in the default stream (the grader synchronizes the device before it reads
// the outputs), but nothing may be left to do on the CPU.
#pragma once

// Part 1, reduce: a tree reduction. Each thread sums several values (a grid-stride loop), each
// warp combines its 32 sums with __shfl_down_sync, each block its warps' sums through shared
// memory, and the blocks' sums are combined (a second kernel over them, or one atomicAdd per
// block).
void reduce_sum(const int* in, int n, int* out);

// Part 2, histogram-global: every thread adds its keys to the histogram in global memory with
// atomicAdd, the plain version that the two below improve on.
void histogram_global(const int* keys, int n, int bins, int* counts);

// Part 3, histogram-private: privatization. Each block builds its own histogram in shared
// memory (shared-memory atomics, far faster than global ones and contended only within the
// block), then adds it to the global one: one global atomicAdd per bin and block instead of one
// per key. When bins do not fit in shared memory (the handout says where that starts), fall
// back to global atomics.
void histogram_private(const int* keys, int n, int bins, int* counts);

// Part 4, histogram-sort: the data-parallel histogram, with no atomics. Sort a copy of the keys
// (thrust::sort on thrust::device is allowed here), find where each bin's run of keys starts in
// the sorted array, and take each count as the distance from its bin's start to the next bin's.
// The EMPTY BINS are the catch: a bin with no key has no run, so its start must be set to where
// the next non-empty bin starts (or n), and its count comes out 0.
void histogram_sort(const int* keys, int n, int bins, int* counts);
