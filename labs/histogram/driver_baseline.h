// histogram's baselines (driver_baseline.cu): CUB's device-wide sum and histogram, the library
// bars the reference is measured against in `gpulab bench histogram`.
#pragma once

// out[0] = the sum of in[0 .. n-1]: cub::DeviceReduce::Sum (device pointers).
void baseline_cub_sum(const int* in, int n, int* out);
// counts[b] = the keys equal to b, for keys in [0, bins): cub::DeviceHistogram::HistogramEven
// with bins + 1 levels 0, 1, .., bins (device pointers).
void baseline_cub_histogram(const int* keys, int n, int bins, int* counts);
