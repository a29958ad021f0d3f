// Names people type (a lab, a part, a dataset, a lab.json key): an unknown one is most often a
// typo, so the message suggests the nearest valid name and lists them all.
#pragma once

#include <string>
#include <vector>

namespace gpulab {

// The name in `choices` nearest to `name`, counting edits (insert, delete, substitute, swap two
// neighbours), where at most a third of its letters differ; empty where none is that near.
std::string nearest_name(const std::string& name, const std::vector<std::string>& choices);

// ` (did you mean "<nearest>"?)`, for a message about `name`; empty where none is near.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& choices);

// `no <what> "<name>" (did you mean "<nearest>"?); the <what>s are: a, b, c`.
std::string unknown_name(const std::string& what, const std::string& name,
                         const std::vector<std::string>& choices);

}  // namespace gpulab
