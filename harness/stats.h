// Sample statistics for timing: the median and the standard error of the median.
#pragma once

#include <vector>

namespace gpulab {

double median(std::vector<double> v);

// Standard error of the median, estimated robustly as 1.2533 * 1.4826 * MAD / sqrt(n)
// (the normal-theory factor applied to a MAD-based sigma, so one outlier does not inflate it).
double median_standard_error(const std::vector<double>& v);

}  // namespace gpulab
