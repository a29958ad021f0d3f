// Shell completion for gpulab. `gpulab completion bash` (or `zsh`) prints a script to source (or
// to save in bash-completion's folder, or zsh's $fpath); the script asks `gpulab __complete
// WORD...` for the candidates, which come from the live command line (CLI11's subcommands and
// options, so that every option added is completed without a list kept here) and from lab.json
// (lab ids, part and dataset names).
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace gpulab {

// The completion script for `shell`: "bash" or "zsh".
std::string completion_script(const std::string& shell);

// The candidates for the last of `words` (the command line after "gpulab", the word being
// completed last, maybe empty), one per line on `out`, found in `app` and in the labs of
// `source`. Words as bash splits them: "--part=x" arrives as "--part", "=", "x".
void complete_words(CLI::App& app, std::vector<std::string> words,
                    const std::filesystem::path& source, std::ostream& out);

}  // namespace gpulab
