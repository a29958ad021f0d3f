#include "class/gradebook.h"

#include "text/csv_text.h"

namespace gpulab {

namespace {

// What a student is called where a name is shown: the roster CSV's name, else the folder.
std::string shown_name(const RosterPerson& p) {
  return p.name.empty() ? p.folder : p.name;
}

std::string score_cell(const LabResult& r) {
  return r.score ? format_points(*r.score) : "";
}

}  // namespace

const std::vector<std::string> kGradescopeScoresHeader = {"Name", "SID", "Email", "Total Score"};

const std::vector<std::string> kCanvasStudentColumns = {"Student", "ID", "SIS User ID",
                                                        "SIS Login ID", "Section"};

std::string gradescope_scores_csv(const ClassTable& table, const std::string& lab) {
  std::string out = csv_row(kGradescopeScoresHeader);
  for (const auto& student : table.students()) {
    const RosterPerson p = table.person(student);
    out += csv_row({shown_name(p), p.id, p.email, score_cell(table.result(student, lab))});
  }
  return out;
}

std::string canvas_gradebook_csv(const ClassTable& table,
                                 const std::map<std::string, std::string>& assignment_ids) {
  std::vector<std::string> header = kCanvasStudentColumns, possible = {"Points Possible"};
  possible.resize(kCanvasStudentColumns.size());
  for (const auto& lab : table.labs()) {
    const auto id = assignment_ids.find(lab);
    header.push_back(id == assignment_ids.end() ? lab : lab + " (" + id->second + ")");
    // No report with a score, no maximum: empty, never a 0 that Canvas would take as one.
    const double max = table.lab_max(lab);
    possible.push_back(max > 0 ? format_points(max) : "");
  }
  std::string out = csv_row(header) + csv_row(possible);
  for (const auto& student : table.students()) {
    const RosterPerson p = table.person(student);
    // ID is Canvas's own user number, which no roster gives gpulab: left empty, Canvas matches
    // on the SIS User ID.
    std::vector<std::string> row = {shown_name(p), "", p.id, "", p.section};
    for (const auto& lab : table.labs()) row.push_back(score_cell(table.result(student, lab)));
    out += csv_row(row);
  }
  return out;
}

}  // namespace gpulab
