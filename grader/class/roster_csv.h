// The roster CSV (`grade-all --roster-csv FILE`): who the students are, for the class exports'
// identifier columns (class.csv, the gradebook uploads). One row per student under a header
// naming its columns, in any order and any case:
//   id       required, never empty, unique: the student's id at the school (Gradescope's SID,
//            Canvas's SIS User ID)
//   name     optional: the name the exports show
//   email    optional: the address Gradescope matches students on
//   section  optional: Canvas's Section column
//   folder   optional: the student's entry in the roster directory, where it is not the id
// Other columns are ignored (a spreadsheet's export carries more). A row belongs to the roster
// entry named by its `folder` cell, or by its id where that is absent or empty; no two rows
// may name the same entry.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpulab {

struct RosterPerson {
  std::string folder;  // the roster entry (its student name)
  std::string id, name, email, section;
};

// The rows of `text`, read as the file `file` (named in errors). Throws std::runtime_error
// naming the file, the row (its line) and the column for anything amiss: no id column, an
// empty or repeated id, a repeated folder, a row whose fields do not match the header.
std::vector<RosterPerson> parse_roster_csv(const std::string& text, const std::string& file);
std::vector<RosterPerson> read_roster_csv(const std::filesystem::path& file);

}  // namespace gpulab
