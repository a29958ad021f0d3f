// A class roster: a directory with one entry per student, named after the student. An entry is
// a directory or an archive (.zip, .tar.gz, .tgz), taken as a submission the way
// `gpulab grade --submission` takes one. Where a student has several labs, the entry may hold
// one per lab: ROSTER/<student>/<lab>/ (or <lab>.zip, <lab>.tar.gz, <lab>.tgz); without one,
// the whole entry is the submission of every lab (the grader takes only the lab's own files
// from it).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpulab {

struct RosterEntry {
  std::string student;
  std::filesystem::path submission;
};

struct Roster {
  std::vector<RosterEntry> entries;  // sorted by student
  // Entries that are neither a directory nor an archive (a notes.txt, say), for a warning.
  std::vector<std::filesystem::path> ignored;
};

// The roster's submissions of `lab`. Names starting with '.' are skipped. Throws
// std::runtime_error when the roster is not a directory or two entries name the same student
// (alice/ and alice.zip).
Roster read_roster(const std::filesystem::path& roster, const std::string& lab);

}  // namespace gpulab
