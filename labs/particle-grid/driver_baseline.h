// particle-grid's baseline (driver_baseline.cu): CUB's radix sort of (cell id, index) pairs, the
// library bar the reference's builds are measured against in `gpulab bench particle-grid`.
#pragma once

// Sorts n (key, value) pairs by the low key_bits bits of the keys (non-negative keys below
// 2^key_bits): cub::DeviceRadixSort::SortPairs with end_bit = key_bits, the fewest passes CUB
// needs for these keys (device pointers; keys_in and values_in are left unchanged).
void baseline_cub_sort_pairs(const int* keys_in, int* keys_out, const int* values_in,
                             int* values_out, int n, int key_bits);
