// The conversation of a graded timed run (and of a batch of correctness datasets, kBatchFlag): the
// grader hands the runner the inputs of each timed sample only when the runner asks for them, over
// the grader's channel (channel_protocol.h: "ask" k, answered "sample" k), so a submission cannot
// see (and work on) a sample's inputs before that sample's clock starts, and the grader's own
// clock, outside the run's process, runs from that answer to the sample's "done".
//
// Samples are numbered 1..n and asked for in order, each once, each after the last one's "done";
// the grader answers "error" (and the run fails) to anything else. Every sample's inputs are a
// dataset of their own (the timing dataset's generator, other seeds), so no two samples of a run
// share content, and the grader checks the outputs of every sample (sent as
// kSampleOutputPrefix<k>_<output>) against that dataset's expected outputs.
#pragma once

#include <string>

namespace gpulab {

// The runner's option that names how many samples to ask for, and the one that names the
// folder where their inputs appear.
constexpr const char* kSamplesOption = "--samples";
constexpr const char* kSamplesDirOption = "--samples-dir";
// Under a checking tool only (runner_flags.h, kUnderToolFlag), where nothing is timed: the part
// of each sample in turn, comma-separated, where samples are other parts' datasets; without it
// every sample is the run's own part's. One process under the tool then runs every part's
// datasets (grader/grade/sanitizer_runs.h): each process under a tool costs the grading a start
// that the GPU's other processes wait for.
constexpr const char* kSamplePartsOption = "--sample-parts";
// A part's correctness datasets in one process (grader/grade/correctness_batch.h): the run's own
// dataset is called first, as any first call is, and then each sample in turn is another of the
// part's datasets, called the same way (student_call.h's boundary, fresh poisoned outputs, its
// inputs checked afterwards, its outputs as left where the call fails) and never timed: its
// outputs go over as sample<k>_<output>, then its "done" with both times 0. Not with a timed run,
// --call-twice or a tool.
constexpr const char* kBatchFlag = "--batch";

// The outputs of sample k: sample<k>_<output>.
inline std::string sample_output_prefix(int k) {
  return "sample" + std::to_string(k) + "_";
}

}  // namespace gpulab
