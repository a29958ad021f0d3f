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

namespace gpulab {

struct PrairieLearnPackage {
  std::string lab;
  std::string hidden_seed;
  // The image's name as the course's PrairieLearn pulls it (a registry's name for it).
  std::string image;
  std::filesystem::path out;
};

// The image's name where none is given: gpulab's version, so a question names the image its
// grader was packaged with.
std::string default_prairielearn_image();

// Writes the package; throws std::runtime_error naming the problem (an unknown lab, an out
// folder that is not empty).
int make_prairielearn_package(const PrairieLearnPackage& p, std::ostream& log);

}  // namespace gpulab
