#include "grade/writeup.h"

#include <cstdio>

#include "files/atomic_file.h"
#include "files/content_hash.h"
#include "grade/writeup_template.h"
#include "report/report_formats.h"
#include "text/joined_words.h"
#include "text/letter_case.h"
#include "text/safe_text.h"

namespace gpulab {

namespace {

namespace fs = std::filesystem;

std::string file_size_text(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024);
  return buf;
}

// What every message ends with: the points, who grades them, what to hand in.
std::string what_to_do(const LabConfig& lab) {
  const std::string& file = lab.writeup->file;
  return "The write-up is worth " + points_text(lab.writeup->points) +
         " points, graded by your instructor: fill in labs/" + lab.id + "/" + file +
         " and hand it in with " + joined(lab.student_files) + ", in the same folder or archive.";
}

// An entry the intake listed whose name is the write-up's in another letter case.
std::string misnamed(const Intake& intake, const std::string& file) {
  for (const auto& name : intake.ignored)
    if (lower_case(name) == lower_case(file)) return quote_head(name, 160);
  return "";
}

}  // namespace

fs::path writeup_copy(const fs::path& report, const std::string& file) {
  return beside_report(report, file);
}

Test keep_writeup(const LabConfig& lab, const IntakeSpec& spec, const Intake& intake,
                  const fs::path& report, std::ostream& log) {
  const std::string& file = lab.writeup->file;
  const SubmittedWriteup& w = intake.writeup;
  const fs::path copy = writeup_copy(report, file);
  Test t;
  t.name = kWriteupTest;
  t.tags = {"writeup"};
  t.info = true;  // a note, never a failure, unless a written one is kept
  t.extra = {{"file", file}, {"points", lab.writeup->points}, {"found", w.found}};
  if (w.found) t.extra["bytes"] = w.bytes;

  std::error_code ec;
  bool kept = false;
  if (intake.accepted && w.text) {
    try {
      write_file_atomically(copy, *w.text);
      kept = true;
      t.extra["kept_as"] = copy.filename().string();
      log << "write-up: " << file << " (" << file_size_text(w.bytes) << ") kept as "
          << copy.string() << ", for the instructor to grade (" << points_text(lab.writeup->points)
          << " points)\n";
    } catch (const std::exception& e) {
      log << "error (instructor): the write-up " << file << " could not be kept: " << e.what()
          << "\n";
    }
  } else {
    fs::remove(copy, ec);  // another submission's, from an earlier grading
  }

  if (!intake.accepted) {
    t.output = "Your submission was not accepted, so its write-up was not looked for either. " +
               what_to_do(lab);
  } else if (w.lone_file) {
    t.output = "Your submission is one file, " + joined(spec.student_files) +
               ", so it holds no write-up. " + what_to_do(lab);
  } else if (!w.found) {
    const std::string other = misnamed(intake, file);
    t.output =
        "No " + file + " was found beside " + joined(spec.student_files) + " in your submission" +
        (other.empty() ? "" : " (\"" + other + "\" is there: the name must be " + file + ")") +
        ". " + what_to_do(lab);
  } else if (!w.text) {
    t.output = file + (w.bytes ? " (" + file_size_text(w.bytes) + ")" : "") +
               " was not kept: " + w.problem + ". " + what_to_do(lab);
  } else if (w.text->empty() || content_hash_of_bytes(*w.text) == template_fingerprint(lab, log)) {
    t.extra["template"] = !w.text->empty();
    t.output = file + (w.text->empty() ? " is empty" : " is the lab's template, unchanged") +
               ": nothing to grade yet. " + what_to_do(lab);
  } else {
    t.info = false;
    t.passed = true;
    t.output = file + " (" + file_size_text(w.bytes) + ") was found and " +
               (kept ? "kept for your instructor, who grades it"
                     : "is graded by your instructor, though the grader could not keep a copy "
                       "(tell them)") +
               ": " + points_text(lab.writeup->points) +
               " points, not part of this score, which is the autograder's alone.";
  }
  // The instructor's log gets the first sentence: what was found and what became of it.
  if (t.info) log << "write-up: " << t.output.substr(0, t.output.find(". ")) << "\n";
  return t;
}

}  // namespace gpulab
