// The conversation of a graded timed run: the grader hands the runner the inputs of each timed
// sample only when the runner asks for them, so a submission cannot see (and work on) a
// sample's inputs before that sample's clock starts.
//
//   runner  -> grader  (fd kSampleRequestFd):  "<k>\n"   the inputs of sample k, please
//   grader  -> runner  (fd kSampleReplyFd):    "<k>\n"   they are in <samples dir>/<k>/
//
// Samples are numbered 1..n and asked for in order, each once; the grader answers "error\n"
// (and the run fails) to anything else. Every sample's inputs are a dataset of their own (the
// timing dataset's generator, other seeds), so no two samples of a run share content, and the
// grader checks the outputs of every sample (written as kSampleOutputPrefix<k>_<output>.npy)
// against that dataset's expected outputs.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab {

constexpr int kSampleRequestFd = 3;
constexpr int kSampleReplyFd = 4;

// The runner's option that names how many samples to ask for, and the one that names the
// folder where their inputs appear.
constexpr const char* kSamplesOption = "--samples";
constexpr const char* kSamplesDirOption = "--samples-dir";

// The outputs of sample k: sample<k>_<output>.npy in the run's output folder.
inline std::string sample_output_prefix(int k) {
  return "sample" + std::to_string(k) + "_";
}

// The runner's side: asks for sample k and waits for the answer; returns the folder of its
// inputs (in `samples_dir`). Throws when the grader refuses or the channel is not there.
std::filesystem::path ask_for_sample(int k, const std::filesystem::path& samples_dir);

}  // namespace gpulab
