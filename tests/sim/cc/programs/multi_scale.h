// The host interface between multi_kernels.cu and multi_main.cpp.
#pragma once

void scale(float* device_data, int n, float factor);
