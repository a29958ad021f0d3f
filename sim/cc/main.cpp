// gpulab-sim-cc: the nvcc-like driver of the CPU backend (see sim_cc.h).
#include <iostream>

#include "sim_cc.h"

int main(int argc, char** argv) {
  return gpulab_sim_cc::sim_cc(std::vector<std::string>(argv + 1, argv + argc), std::cerr);
}
