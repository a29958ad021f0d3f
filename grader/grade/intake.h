// Taking in a submission, the same for every command (grade, run, time): a directory, a .zip, a
// .tar.gz (.tgz), or one of the lab's student files on its own (where the lab has one, a file
// of its extension under a name of its own, scan-8.cu, is taken as it). Exactly the lab's
// student files are copied into the grader's work directory; nothing else of the submission is
// ever compiled or opened. The rules (docs/GRADING.md, "Submissions"):
//  - the student files sit at the top, or inside one folder (students zip their folder); a
//    submission holding none of them is refused (nothing to grade), naming an entry named like
//    one ("scan (1).cu": name it scan.cu);
//  - an archive is refused when any entry has an absolute path or a `..`, is a link (symbolic
//    or hard) or a device, pipe or socket, appears twice, or when it has too many entries, or
//    unpacks to too many bytes (counted as they are decompressed, not as headers claim);
//  - in a directory, the student files must be plain files with a single link; other entries
//    are never opened, so they are only listed;
//  - a student file larger than the per-file limit is refused;
//  - other files (a README, the lab's header) are not graded: the report lists them, except
//    operating-system litter (.DS_Store, __MACOSX/, ._*) and the lab folder's own files;
//  - the lab's write-up (lab.json's "writeup"), where asked for, is read where the student
//    files are, by the same rules and a limit of its own, but never staged with them: it is
//    never compiled, and no build or run sees it (writeup.h keeps it). A write-up that breaks a
//    rule is not kept, and that is all: the code is graded all the same.
// A refusal is the student's: it becomes a report with score zero and the reason, naming the
// file. A submission that does not exist is the instructor's: it throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lab/lab_config.h"

namespace gpulab {

struct IntakeLimits {
  size_t max_file_bytes = size_t{1} << 20;       // one student file
  size_t max_total_bytes = size_t{16} << 20;     // an archive's entries, unpacked, all together
  size_t max_archive_bytes = size_t{16} << 20;   // the archive file itself
  size_t max_entries = 1000;                     // in an archive, or in one directory level
  size_t max_writeup_bytes = size_t{256} << 10;  // the write-up: text, not figures
};

// What the lab expects: its student files, and the names a student may leave in beside them
// without a note (the other files of the lab's folder: lab.json, the interface header, ...).
struct IntakeSpec {
  std::vector<std::string> student_files;
  std::vector<std::string> lab_folder_files;
  std::string writeup_file;  // the write-up to look for beside the student files; "": none

  static IntakeSpec of(const LabConfig& lab);  // lab_folder_files: the names in labs/<id>/
};

// The write-up as the intake found it.
struct SubmittedWriteup {
  bool lone_file = false;           // the submission is one source file, which holds none
  bool found = false;               // an entry of its name is where the student files are
  std::optional<std::string> text;  // its bytes, where it may be kept
  uint64_t bytes = 0;               // its size, where known
  std::string problem;              // why it may not be kept, for the student; "" where it may
};

struct Intake {
  bool accepted = false;
  SubmittedWriteup writeup;          // where the spec names one and the submission was accepted
  std::string rejection;             // why not, for the student, when not accepted
  std::vector<std::string> ignored;  // the submission's other entries, as the student named them
  // A lone file under a name of its own (scan-8.cu), taken as the lab's one file; "" otherwise.
  std::string taken_as;
  // For the report: which files are graded and which were not (or the lone file taken as the
  // lab's), or "" when nothing was left out.
  std::string note(const IntakeSpec& spec) const;
};

// Copies the student files of `submission` into `dst` (created afresh). Throws
// std::runtime_error when `submission` does not exist.
Intake take_in_submission(const std::filesystem::path& submission, const IntakeSpec& spec,
                          const std::filesystem::path& dst, const IntakeLimits& limits = {});

}  // namespace gpulab
