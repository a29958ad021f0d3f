#include "class/roster_csv.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

#include "text/csv_text.h"
#include "text/letter_case.h"
#include "text/text_edits.h"

namespace gpulab {

namespace {

constexpr const char* kColumns[] = {"id", "name", "email", "section", "folder"};

}  // namespace

std::vector<RosterPerson> parse_roster_csv(const std::string& text, const std::string& file) {
  std::vector<CsvRecord> records;
  try {
    records = parse_csv(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("roster CSV " + file + ", " + e.what());
  }
  if (records.empty())
    throw std::runtime_error("roster CSV " + file +
                             " is empty: it needs a header row naming its columns (id, and "
                             "optionally name, email, section, folder)");
  // Where each known column is, by its name in the header.
  std::map<std::string, size_t> at;
  const CsvRecord& header = records.front();
  for (size_t c = 0; c < header.fields.size(); ++c) {
    const std::string name = lower_case(trimmed(header.fields[c]));
    if (std::find(std::begin(kColumns), std::end(kColumns), name) == std::end(kColumns)) continue;
    if (at.count(name))
      throw std::runtime_error("roster CSV " + file + ", row 1 (the header): column \"" + name +
                               "\" appears twice");
    at[name] = c;
  }
  if (!at.count("id"))
    throw std::runtime_error("roster CSV " + file +
                             ", row 1 (the header): no column \"id\" (the header must name the "
                             "columns: id, and optionally name, email, section, folder)");

  std::vector<RosterPerson> people;
  std::map<std::string, size_t> id_row, folder_row;
  for (size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& rec = records[r];
    const std::string where = "roster CSV " + file + ", row " + std::to_string(rec.line);
    if (rec.fields.size() != header.fields.size())
      throw std::runtime_error(where + ": " + std::to_string(rec.fields.size()) +
                               " fields, the header has " + std::to_string(header.fields.size()) +
                               " (a comma in a name needs the field quoted: \"Doe, Jane\")");
    const auto cell = [&](const char* column) -> std::string {
      const auto it = at.find(column);
      return it == at.end() ? "" : trimmed(rec.fields[it->second]);
    };
    RosterPerson p{cell("folder"), cell("id"), cell("name"), cell("email"), cell("section")};
    if (p.id.empty()) throw std::runtime_error(where + ", column \"id\": empty");
    if (p.folder.empty()) p.folder = p.id;
    if (const auto seen = id_row.find(p.id); seen != id_row.end())
      throw std::runtime_error(where + ", column \"id\": \"" + p.id + "\" is also row " +
                               std::to_string(seen->second) + "'s");
    const char* folder_column = at.count("folder") && !cell("folder").empty() ? "folder" : "id";
    if (const auto seen = folder_row.find(p.folder); seen != folder_row.end())
      throw std::runtime_error(where + ", column \"" + folder_column + "\": roster entry \"" +
                               p.folder + "\" is also row " + std::to_string(seen->second) +
                               "'s (each row names its own entry: its folder, else its id)");
    id_row[p.id] = folder_row[p.folder] = rec.line;
    people.push_back(std::move(p));
  }
  return people;
}

std::vector<RosterPerson> read_roster_csv(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("roster CSV " + file.string() + ": cannot be read");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parse_roster_csv(text, file.string());
}

}  // namespace gpulab
