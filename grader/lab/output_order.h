// The order a part's outputs are told in: data flow, so that where several are wrong the student
// reads first the one the others were built from (a CSR list's starts before the lists they
// index), which is most often the first thing to fix.
#pragma once

#include <string>
#include <vector>

#include "lab/lab_config.h"

namespace gpulab {

// `part`'s outputs, each after the outputs of the part that its tolerance reads its layout from
// (segment_sets' starts and counts), otherwise in lab.json's order.
std::vector<std::string> data_flow_order(const LabConfig& lab, const PartSpec& part);

}  // namespace gpulab
