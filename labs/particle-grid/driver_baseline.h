// particle-grid's baseline (driver_baseline.cu): CUB's radix sort of (cell id, index) pairs, the
// library bar the reference's builds are measured against in `gpulab bench particle-grid`.
#pragma once

// Sorts n (key, value) pairs by key over all 32 key bits: cub::DeviceRadixSort::SortPairs
// (device pointers; keys_in and values_in are left unchanged).
void baseline_cub_sort_pairs(const int* keys_in, int* keys_out, const int* values_in,
                             int* values_out, int n);
