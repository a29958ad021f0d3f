#include "grade/writeup_template.h"

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "files/content_hash.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// How the record names a lab's template: its path in the tree, as the kit's files are named.
std::string template_key(const LabConfig& lab) {
  return "labs/" + lab.id + "/" + lab.writeup->file;
}

// The fingerprint `record` holds for `lab`; "" (said on `log`) where it cannot tell.
std::string recorded_fingerprint(const fs::path& record, const LabConfig& lab, std::ostream& log) {
  const std::string key = template_key(lab);
  try {
    std::ifstream in(record, std::ios::binary);
    if (!in) throw std::runtime_error("cannot be opened");
    const json j = json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
    const json& templates = j.at("templates");
    if (templates.contains(key) && templates[key].is_string())
      return templates[key].get<std::string>();
    log << "write-up: " << record.string() << " names no template " << key;
  } catch (const std::exception& e) {
    log << "write-up: " << record.string() << " could not be read (" << e.what() << ")";
  }
  log << "; the write-up is compared with " << (lab.dir / lab.writeup->file).string()
      << " instead\n";
  return "";
}

}  // namespace

std::string writeup_template_record(const std::vector<LabConfig>& labs) {
  json templates = json::object();
  for (const LabConfig& lab : labs) {
    if (!lab.writeup) continue;
    const fs::path file = lab.dir / lab.writeup->file;
    if (!fs::is_regular_file(file))
      throw std::runtime_error("the write-up's template " + file.string() + ", which " +
                               (lab.dir / "lab.json").string() + " names, is missing");
    templates[template_key(lab)] = content_hash(file);
  }
  return json{{"templates", templates}}.dump(1) + "\n";
}

std::string template_fingerprint(const LabConfig& lab, std::ostream& log) {
  // lab.dir is <tree>/labs/<id>.
  const fs::path record = lab.dir.parent_path().parent_path() / kWriteupTemplateRecord;
  std::error_code ec;
  if (fs::exists(record, ec))
    if (std::string recorded = recorded_fingerprint(record, lab, log); !recorded.empty())
      return recorded;
  const fs::path file = lab.dir / lab.writeup->file;
  if (!fs::is_regular_file(file, ec)) return "";
  try {
    return content_hash(file);
  } catch (const std::exception&) {
    return "";  // unreadable: no template to be unchanged from
  }
}

}  // namespace gpulab
