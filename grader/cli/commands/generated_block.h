// The blocks gpulab writes into files of its own tree from lab.json (a handout's rubric, the
// README's table of labs): the file read, its block replaced, written back whole.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace gpulab {

// `replace` rewrites the block in the file's text and returns false where its markers are
// missing (`markers` names them in the error). Returns the command's exit status.
int rewrite_generated_block(const std::filesystem::path& path,
                            const std::function<bool(std::string&)>& replace,
                            const std::string& markers);

}  // namespace gpulab
