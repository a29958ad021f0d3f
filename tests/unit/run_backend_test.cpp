// gpulab run's backend when the student names none (grader/cli/run_backend.h).
#include "cli/run_backend.h"

#include <doctest/doctest.h>

namespace {

using gpulab::Backend;
using gpulab::choose_run_backend;
using gpulab::RunBackendFacts;

// This machine as CI has it: no GPU, a build with both backends, a lab with GPU parts.
RunBackendFacts no_gpu() {
  RunBackendFacts f;
  f.gpu_usable = false;
  f.gpu_problem = "no CUDA GPU found (no CUDA-capable device is detected)";
  return f;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("without a GPU, GPU parts run on sim, in one line that says why and how to force cuda") {
  const auto chosen = choose_run_backend(no_gpu());
  CHECK(chosen.backend == Backend::sim);
  CHECK(has(chosen.note, "no CUDA-capable device is detected"));
  CHECK(has(chosen.note, "--backend cuda forces the GPU"));
  CHECK(chosen.note.find('\n') == std::string::npos);
  CHECK_FALSE(has(chosen.note, "CPU parts"));  // none selected
}

TEST_CASE("a timed CPU part beside GPU parts: the line says --backend cuda would time it") {
  RunBackendFacts f = no_gpu();
  f.timed_cpu_part_selected = true;
  const auto chosen = choose_run_backend(f);
  CHECK(chosen.backend == Backend::sim);
  CHECK(has(chosen.note, "times the CPU parts"));
}

TEST_CASE("only CPU parts without a GPU: cuda, which times them, and nothing to say") {
  RunBackendFacts f = no_gpu();
  f.gpu_part_selected = false;
  f.timed_cpu_part_selected = true;
  const auto chosen = choose_run_backend(f);
  CHECK(chosen.backend == Backend::cuda);
  CHECK(chosen.note.empty());
}

TEST_CASE("a usable GPU: cuda, silently") {
  RunBackendFacts f;
  f.gpu_usable = true;
  const auto chosen = choose_run_backend(f);
  CHECK(chosen.backend == Backend::cuda);
  CHECK(chosen.note.empty());
}

TEST_CASE("a backend the student gives is obeyed whatever the machine") {
  RunBackendFacts f = no_gpu();
  f.given = Backend::cuda;
  CHECK(choose_run_backend(f).backend == Backend::cuda);
  CHECK(choose_run_backend(f).note.empty());
  f.gpu_usable = true;
  f.given = Backend::sim;
  CHECK(choose_run_backend(f).backend == Backend::sim);
}

TEST_CASE("a build for the CPU backend alone runs on sim even beside a GPU, naming how to build") {
  RunBackendFacts f;
  f.gpu_usable = true;
  f.cuda_runners_built = false;
  const auto chosen = choose_run_backend(f);
  CHECK(chosen.backend == Backend::sim);
  CHECK(has(chosen.note, "built for the CPU backend alone"));
  CHECK(has(chosen.note, "GPULAB_CUDA_RUNNERS=ON"));
  CHECK_FALSE(has(chosen.note, "--backend cuda"));  // it could not run here
  f.gpu_part_selected = false;  // its CPU parts too: there is no cuda driver to run them
  CHECK(choose_run_backend(f).backend == Backend::sim);
}

TEST_CASE("no CPU backend and no GPU: cuda as before, naming what to build") {
  RunBackendFacts f = no_gpu();
  f.sim_built = false;
  const auto chosen = choose_run_backend(f);
  CHECK(chosen.backend == Backend::cuda);
  CHECK(has(chosen.note, "no CPU backend"));
  CHECK(has(chosen.note, "scripts/setup.sh"));
  CHECK(has(chosen.note, "--preset student"));
  f.gpu_part_selected = false;  // nothing left out: nothing to say
  CHECK(choose_run_backend(f).note.empty());
}

}  // namespace
