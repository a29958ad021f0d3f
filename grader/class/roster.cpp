#include "class/roster.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "files/archive_name.h"

namespace gpulab {

namespace fs = std::filesystem;

namespace {

// ROSTER/<student>/<lab> as a directory or an archive, when the student's entry has one.
fs::path lab_entry(const fs::path& student_dir, const std::string& lab) {
  if (fs::is_directory(student_dir / lab)) return student_dir / lab;
  for (const auto& e : fs::directory_iterator(student_dir)) {
    const std::string name = e.path().filename().string();
    const size_t suffix = archive_suffix(name).size();
    if (suffix && e.is_regular_file() && name.substr(0, name.size() - suffix) == lab)
      return e.path();
  }
  return {};
}

}  // namespace

Roster read_roster(const fs::path& roster, const std::string& lab) {
  if (!fs::is_directory(roster))
    throw std::runtime_error("the roster " + roster.string() +
                             " is not a directory (it holds one entry per student)");
  Roster r;
  std::map<std::string, fs::path> by_student;
  for (const auto& e : fs::directory_iterator(roster)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::string student;
    fs::path submission;
    if (e.is_directory()) {
      student = name;
      submission = lab_entry(e.path(), lab);
      if (submission.empty()) submission = e.path();
    } else if (const std::string suffix = archive_suffix(name);
               e.is_regular_file() && !suffix.empty()) {
      student = name.substr(0, name.size() - suffix.size());
      submission = e.path();
    } else {
      r.ignored.push_back(e.path());
      continue;
    }
    const auto [at, inserted] = by_student.emplace(student, submission);
    if (!inserted)
      throw std::runtime_error("the roster has two entries for the student \"" + student +
                               "\": " + at->second.string() + " and " + submission.string());
  }
  for (const auto& [student, submission] : by_student) r.entries.push_back({student, submission});
  std::sort(r.ignored.begin(), r.ignored.end());
  return r;
}

}  // namespace gpulab
