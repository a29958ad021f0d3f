#include "package/prairielearn_package.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "build/dist_policy.h"
#include "core/report.h"
#include "files/paths.h"
#include "files/secret.h"
#include "lab/lab_config.h"
#include "text/html_text.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// Where the image keeps gpulab's sources (built in place, in build/) and its entrypoint: filled
// into the Dockerfile and the entrypoint, and named by info.json.
constexpr const char* kImageSource = "/opt/gpulab";
constexpr const char* kImageEntrypoint = "/usr/local/bin/gpulab-prairielearn-grade";
// A UUID for the lab's question, the same each time it is packaged (PrairieLearn knows a
// question by it across syncs): name-based, from SHA-256 of public text, version 5's layout.
std::string question_uuid(const std::string& lab) {
  std::string b = sha256("gpulab prairielearn question\n" + lab).substr(0, 16);
  b[6] = static_cast<char>((b[6] & 0x0f) | 0x50);
  b[8] = static_cast<char>((b[8] & 0x3f) | 0x80);
  const std::string hex = to_hex(b);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

// `timeout_s`: seconds PrairieLearn gives one grading before it stops the container. A correct
// scan on the CPU backend grades in about 10 s from an empty dataset cache (each job's container
// starts with one); a slow or hanging submission is graded within the time budget the question
// keeps beside it (tests/time-budget).
std::string info_json(const LabConfig& lab, const std::string& image, double timeout_s) {
  const nlohmann::json info = {{"uuid", question_uuid(lab.id)},
                               {"title", "gpulab " + lab.id + ": " + lab.title},
                               {"topic", "gpulab"},
                               {"tags", {"gpulab", lab.id}},
                               {"type", "v3"},
                               {"singleVariant", true},
                               {"gradingMethod", "External"},
                               {"externalGradingOptions",
                                {{"enabled", true},
                                 {"image", image},
                                 {"entrypoint", kImageEntrypoint},
                                 {"timeout", std::llround(timeout_s)}}}};
  return info.dump(2) + "\n";
}

// The write-up (lab.json's "writeup") may come with the code, for the instructor to grade: a
// line of the question saying so, and the upload's attribute naming it as optional.
std::string writeup_line(const LabConfig& lab) {
  if (!lab.writeup) return "";
  return "  <p>Upload your write-up, <code>" + html_escape(lab.writeup->file) +
         "</code>, with it: your instructor grades it (" + points_text(lab.writeup->points) +
         " points).</p>\n";
}

std::string writeup_attribute(const LabConfig& lab) {
  return lab.writeup ? " optional-file-names=\"" + html_escape(lab.writeup->file) + "\"" : "";
}

std::string question_html(const LabConfig& lab) {
  std::string files, names;
  for (const auto& f : lab.student_files) {
    files += (files.empty() ? "" : ", ") + ("<code>" + html_escape(f) + "</code>");
    names += (names.empty() ? "" : ",") + html_escape(f);
  }
  return "<pl-question-panel>\n"
         "  <p><b>" +
         html_escape(lab.title) + "</b> (gpulab lab <code>" + html_escape(lab.id) +
         "</code>): upload " + files +
         ", as in your copy of the lab.</p>\n"
         "  <p>It is graded on gpulab's CPU backend, which runs your kernels on the CPU and "
         "checks them for bugs: correctness on the public and the hidden datasets, no "
         "performance points. Check it first with <code>gpulab run " +
         html_escape(lab.id) + "</code>.</p>\n" + writeup_line(lab) +
         "</pl-question-panel>\n\n"
         "<pl-file-upload file-names=\"" +
         names + "\"" + writeup_attribute(lab) +
         "></pl-file-upload>\n\n"
         "<pl-submission-panel>\n"
         "  <pl-external-grader-results></pl-external-grader-results>\n"
         "  <pl-file-preview></pl-file-preview>\n"
         "</pl-submission-panel>\n";
}

void write_file(const fs::path& path, const std::string& content, bool executable) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
  if (executable)
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
}

}  // namespace

std::string prairielearn_image(const PrairieLearnPackage& p) {
  const std::string how =
      " (the Docker Hub account or organization the course's PrairieLearn pulls images from): "
      "--image-account ACCOUNT names the image ACCOUNT/gpulab-prairielearn:" +
      std::string(GPULAB_VERSION) + ", or --image ACCOUNT/NAME:TAG names it whole";
  if (!p.image.empty()) {
    const size_t slash = p.image.find('/');
    if (slash == std::string::npos || slash == 0)
      throw std::runtime_error("--image " + p.image + ": the name needs an account part" + how);
    return p.image;
  }
  if (p.image_account.empty())
    throw std::runtime_error("the grader image's name needs an account part" + how);
  if (p.image_account.find_first_of("/: ") != std::string::npos)
    throw std::runtime_error("--image-account " + p.image_account +
                             ": an account or organization alone, without / or :");
  return p.image_account + "/gpulab-prairielearn:" + GPULAB_VERSION;
}

int make_prairielearn_package(const PrairieLearnPackage& p, std::ostream& log) {
  const Paths paths = Paths::current();
  const LabConfig lab = LabConfig::load_id(paths.source, p.lab);
  const std::string image_name = prairielearn_image(p);
  if (fs::exists(p.out) && !(fs::is_directory(p.out) && fs::is_empty(p.out)))
    throw std::runtime_error(p.out.string() +
                             " exists and is not an empty folder: give a new one (the package "
                             "writes question/ and image/ under it)");
  const fs::path question = p.out / "question", image = p.out / "image";
  write_file(question / "info.json", info_json(lab, image_name, p.timeout_s), false);
  write_file(question / "question.html", question_html(lab), false);
  // The grader's inputs, in files of their own so the entrypoint reads each as it is (any text).
  write_file(question / "tests" / "lab", lab.id, false);
  write_file(question / "tests" / "hidden-seed", p.hidden_seed, false);
  write_file(question / "tests" / "time-budget", platform_time_budget_text(p.timeout_s) + "\n",
             false);

  const std::vector<std::pair<std::string, std::string>> values = {
      {"GPULAB_VERSION", GPULAB_VERSION},
      {"GPULAB_IMAGE_SOURCE", kImageSource},
      {"GPULAB_IMAGE_ENTRYPOINT", kImageEntrypoint}};
  for (const auto& f : read_bundle(paths.source,
                                   {{"packaging/prairielearn/Dockerfile", "Dockerfile"},
                                    {"packaging/prairielearn/entrypoint", "entrypoint"}},
                                   ""))
    write_file(image / f.path, fill_template(f.content, values, "packaging/prairielearn/" + f.path),
               f.executable);
  // The Gradescope autograder's selection: what building gpulab for the CPU backend needs.
  const auto sources = select_files(Bundle::gradescope, tracked_files(paths.source));
  for (const auto& f : read_bundle(paths.source, sources, "gpulab/"))
    write_file(image / f.path, f.content, f.executable);
  log << "wrote " << p.out.string() << ": the PrairieLearn question for " << lab.id
      << " in question/ (copy it into the course's questions/; its tests/ holds the hidden seed, "
         "so keep the course repository private to its staff), and the grader image's build "
         "context in image/ ("
      << sources.size() << " gpulab sources; build it with `docker build --platform "
      << kPrairieLearnPlatform << " -t " << image_name << " " << image.string()
      << "` and push it with `docker push " << image_name
      << "` where the course's PrairieLearn pulls images). Its gradings keep within "
      << platform_time_budget_text(p.timeout_s) << " s for the question's timeout of "
      << std::llround(p.timeout_s)
      << " s (info.json): package again with --platform-timeout to change both\n";
  return 0;
}

}  // namespace gpulab
