// The rubric of a lab as a Markdown table, generated from lab.json for its handout.
#pragma once

#include <string>

#include "lab_config.h"

namespace gpulab {

std::string rubric_markdown(const LabConfig& lab);

// Replaces the block between the handout's rubric markers with a fresh table; returns false
// when the markers are missing.
bool replace_rubric_block(std::string& handout, const LabConfig& lab);

}  // namespace gpulab
