// Sample statistics for timing: the median and the standard error of the median.
#pragma once

#include <vector>

namespace gpulab {

double median(std::vector<double> v);

// Standard error of the median, estimated robustly as 1.2533 * 1.4826 * MAD / sqrt(n)
// (the normal-theory factor applied to a MAD-based sigma, so one outlier does not inflate it).
double median_standard_error(const std::vector<double>& v);

// The median over rounds of a[r] / b[r]: two codes timed in turns, each round's pair adjacent in
// time, so a slow spell of the machine scales both of a round's times and cancels in its ratio.
// Uses the rounds both have (the shorter length).
double median_round_ratio(const std::vector<double>& a, const std::vector<double>& b);

// Each round's a[r] / b[r], for the rounds both have.
std::vector<double> round_ratios(const std::vector<double>& a, const std::vector<double>& b);

// Whether `v` spreads over at most `within` of its median: max - min <= within * |median|.
// An empty `v` agrees, and so does one finite value; a NaN or an infinity never does.
bool values_agree(const std::vector<double>& v, double within);

}  // namespace gpulab
