// The class's scores as course platforms import them, written beside class.csv by grade-all
// (docs/GRADING.md, "Publishing results"). Each row is a student of the class table
// (class_table.h), with the score it counts: zeros for a submission that did not build or is
// missing, an empty cell (the platform keeps what it had) where the grader failed, was stopped
// or graded nothing worth points: "not graded" is never a 0.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "class/class_table.h"

namespace gpulab {

// Gradescope's "Upload scores" CSV for the assignment of one lab. Gradescope matches a row by
// its Email or SID.
extern const std::vector<std::string> kGradescopeScoresHeader;  // Name, SID, Email, Total Score
std::string gradescope_scores_csv(const ClassTable& table, const std::string& lab);

// Canvas's gradebook import: the student columns, then a column per lab, named
// "<lab> (<assignment id>)" where `assignment_ids` knows the lab's Canvas assignment, else the
// lab; a "Points Possible" row (empty for a lab no report gives points in); a row per student.
// Canvas matches a row on its SIS User ID.
extern const std::vector<std::string> kCanvasStudentColumns;  // Student, ID, SIS User ID, ...
std::string canvas_gradebook_csv(const ClassTable& table,
                                 const std::map<std::string, std::string>& assignment_ids);

}  // namespace gpulab
