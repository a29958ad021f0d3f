#include "grade/runner_builds.h"

#include "build/kit_runners.h"
#include "files/content_hash.h"

namespace gpulab {

bool RunnerBuilds::reference_available() const {
  return std::filesystem::exists(c_.paths.reference_runner(c_.lab.id, c_.o.backend)) ||
         std::filesystem::exists(c_.paths.reference_dir(c_.lab.id));
}

const std::filesystem::path& RunnerBuilds::reference() {
  if (!reference_.empty()) return reference_;
  const auto prebuilt = c_.paths.reference_runner(c_.lab.id, c_.o.backend);
  if (std::filesystem::exists(prebuilt)) {
    check_shipped_runner(c_.paths, c_.lab, prebuilt);
    reference_ = prebuilt;
    return reference_;
  }
  const BuildResult b = build_runner(c_.lab, c_.paths, c_.paths.reference_dir(c_.lab.id),
                                     c_.work / "reference-build", c_.o.backend, c_.sandbox);
  if (!b.ok) throw std::runtime_error("the reference solution did not build: " + b.message);
  reference_ = b.runner;
  return reference_;
}

const std::filesystem::path& RunnerBuilds::baseline() {
  if (!baseline_.empty()) return baseline_;
  const auto prebuilt = c_.paths.stub_runner(c_.lab.id, c_.o.backend);
  const auto shipped = c_.paths.shipped_baseline_runner(c_.lab.id, c_.o.backend);
  std::error_code ec;
  if (!shipped.empty()) {  // the kit's own build of this lab has no baseline
    check_shipped_runner(c_.paths, c_.lab, shipped);
    baseline_ = shipped;
  } else if (std::filesystem::exists(prebuilt)) {
    baseline_ = prebuilt;
  } else if (std::filesystem::equivalent(c_.o.submission, c_.paths.lab_dir(c_.lab.id), ec)) {
    baseline_ = c_.student.runner;
  } else {
    const BuildResult b = build_runner(c_.lab, c_.paths, c_.paths.lab_dir(c_.lab.id),
                                       c_.work / "baseline-build", c_.o.backend, c_.sandbox);
    if (!b.ok)
      throw std::runtime_error("the runner that times the lab's baseline, built from " +
                               c_.paths.lab_dir(c_.lab.id).string() +
                               ", did not build: " + b.message);
    baseline_ = b.runner;
  }
  return baseline_;
}

std::optional<std::string> RunnerBuilds::reference_build() {
  if (!reference_build_.empty()) return reference_build_;
  const auto prebuilt = c_.paths.reference_runner(c_.lab.id, c_.o.backend);
  if (reference_.empty() && !std::filesystem::exists(prebuilt)) return std::nullopt;
  reference_build_ = content_hash(reference());
  return reference_build_;
}

}  // namespace gpulab
