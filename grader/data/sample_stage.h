// The grader's side of a graded timed run's conversation (harness/sample_protocol.h): each
// sample's inputs, a dataset of their own, are put where the run sees them only when the run
// asks for that sample, in order, each once. Until then they are nowhere the run can read, so
// a submission cannot work on them (or keep their results) before their sample's clock starts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "data/dataset_store.h"

namespace gpulab {

class SampleStage {
 public:
  // `dir` (made empty here) is what the run sees as its samples folder.
  SampleStage(std::filesystem::path dir, std::vector<DatasetDirs> samples);

  // The answer to one request line: "<k>" once sample k's inputs are in dir/<k>/, or "error".
  std::string answer(const std::string& request);

  int handed_over() const { return next_ - 1; }
  // What went wrong with the requests, for the student; "" when nothing did.
  const std::string& problem() const { return problem_; }

 private:
  std::string hand_over(const std::string& request);

  std::filesystem::path dir_;
  std::vector<DatasetDirs> samples_;
  int next_ = 1;
  std::string problem_;
};

}  // namespace gpulab
