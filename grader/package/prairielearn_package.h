// gpulab package prairielearn: a PrairieLearn external-graded question for one lab, and the
// grader image it names. Under the output folder:
//   question/  the question's folder for the course (info.json, question.html, and tests/, which
//              PrairieLearn copies to /grade/tests for the grader alone: the lab's id and the
//              instructor's hidden seed);
//   image/     the image's build context: packaging/prairielearn/'s Dockerfile and entrypoint,
//              and gpulab's sources for the CPU backend (the files the Gradescope autograder
//              builds from: no reference/, no tests).
// The image serves every lab (gpulab built with all of them); the question says which it grades.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include "os/platform_time.h"

namespace gpulab {

struct PrairieLearnPackage {
  std::string lab;
  std::string hidden_seed;
  // The image's name as the course's PrairieLearn pulls it, ACCOUNT/NAME[:TAG] (--image); empty:
  // `image_account`'s gpulab-prairielearn:<version>.
  std::string image;
  std::filesystem::path out;
  // The Docker Hub account or organization the course's PrairieLearn pulls the image from
  // (--image-account): the account part the default name needs.
  std::string image_account;
  // The question's timeout (info.json's externalGradingOptions.timeout, --platform-timeout): the
  // time budget of its gradings follows it (platform_time.h).
  double timeout_s = kPrairieLearnTimeoutS;
};

// The image's name: `p.image`, else `p.image_account`/gpulab-prairielearn:<gpulab's version>, so a
// question names the image its grader was packaged with. A name without an account part cannot
// be pushed to the registry PrairieLearn pulls from, nor synced: throws std::runtime_error
// saying which option to give.
std::string prairielearn_image(const PrairieLearnPackage& p);

// How the printed build command builds the image: for the machines PrairieLearn grades on
// (x86-64), whatever machine builds it (an ARM laptop's image would not run there).
inline constexpr const char* kPrairieLearnPlatform = "linux/amd64";

// Writes the package; throws std::runtime_error naming the problem (an unknown lab, an out
// folder that is not empty).
int make_prairielearn_package(const PrairieLearnPackage& p, std::ostream& log);

}  // namespace gpulab
