#include "lab/lab_config.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "lab/lab_json_reader.h"
#include "lab/lab_schema.h"
#include "lab/schema_check.h"
#include "text/nearest_name.h"

namespace gpulab {

std::vector<std::string> PartSpec::runner_env() const {
  if (gpu) return {};
  return {"CUDA_VISIBLE_DEVICES="};
}

namespace {

using Reader = LabJsonReader;

// lab.json's "writeup", once the lab's files are known: its name must be none of them, since
// the intake would take it for code (or code for it).
WriteupSpec parse_writeup(const nlohmann::json& w, const LabConfig& c, const Reader& r) {
  WriteupSpec s{w.at("file").get<std::string>(), w.at("points").get<double>()};
  for (const auto* files : {&c.student_files, &c.driver_files, &c.reference_driver_files})
    if (std::find(files->begin(), files->end(), s.file) != files->end())
      r.fail("writeup.file", "\"" + s.file +
                                 "\" is a file of the lab's code; the write-up needs a "
                                 "name of its own");
  return s;
}

}  // namespace

bool DatasetSpec::applies_to(const std::string& part) const {
  return parts.empty() || std::find(parts.begin(), parts.end(), part) != parts.end();
}

nlohmann::json GroupSpec::backends_json() const {
  nlohmann::json names = nlohmann::json::array();
  for (Backend b : backends) names.push_back(backend_name(b));
  return names;
}

bool GroupSpec::on_backend(Backend backend) const {
  return std::find(backends.begin(), backends.end(), backend) != backends.end();
}

LabConfig LabConfig::load(const std::filesystem::path& lab_json) {
  std::ifstream in(lab_json, std::ios::binary);
  if (!in) throw LabConfigError(lab_json.string() + ": cannot open");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse(text, lab_json);
}

namespace {

// lab.json's sections, each read by a function of its own below.
using Json = nlohmann::json;

using Strings = std::vector<std::string>;

void read_id(const Json& v, LabConfig& c, const Reader& r) {
  c.id = v.get<std::string>();
  if (c.id != c.dir.filename().string())
    r.fail("id",
           "\"" + c.id + "\" does not match the folder name \"" + c.dir.filename().string() + "\"");
}

// One output's tolerance: its model, whose keys the schema checked, compares one dtype.
void read_tolerance(const Json& t, OutputSpec& s, const std::string& where, const Reader& r) {
  const std::string at = where + ".tolerance";
  s.tolerance.model = t.at("model").get<std::string>();
  const std::string dtype = s.tolerance.model == "sum_magnitude" ? "float32" : "int32";
  if (s.dtype != dtype)
    r.fail(at + ".model", "\"" + s.tolerance.model + "\" compares " + dtype + " outputs only");
  if (s.tolerance.segment_sets()) {
    s.tolerance.starts = t.at("starts").get<std::string>();
    s.tolerance.counts = t.at("counts").get<std::string>();
    s.tolerance.segment_noun = t.value("segment", s.tolerance.segment_noun);
    s.tolerance.segment_shape = t.value("segment_shape", s.tolerance.segment_shape);
  }
  if (s.tolerance.model != "sum_magnitude") return;
  s.tolerance.K = t.at("K").get<double>();
  s.tolerance.unit_roundoff = t.at("unit_roundoff").get<double>();
  if (t.at("terms").is_number())
    s.tolerance.terms_constant = t.at("terms").get<double>();
  else
    s.tolerance.terms = t.at("terms").get<std::string>();
  if (t.contains("heads")) {
    s.tolerance.heads = t.at("heads").get<std::string>();
    if (!s.tolerance.prefix_terms())
      r.fail(at + ".heads", "only a prefix sum (\"terms\": \"prefix\") has heads");
  }
  s.tolerance.position = t.value("position", s.tolerance.position);
}

void read_outputs(const Json& outputs, LabConfig& c, const Reader& r) {
  for (const auto& [name, o] : outputs.items()) {
    OutputSpec s{name, o.at("dtype").get<std::string>(), {}};
    read_tolerance(o.at("tolerance"), s, "outputs." + name, r);
    c.outputs[name] = s;
  }
  // A segment_sets output's segments come from two other int32 outputs of the lab.
  for (const auto& [name, s] : c.outputs) {
    if (!s.tolerance.segment_sets()) continue;
    for (const auto& [key, output] :
         {std::pair{"starts", s.tolerance.starts}, std::pair{"counts", s.tolerance.counts}}) {
      const auto it = c.outputs.find(output);
      if (it == c.outputs.end() || it->first == name || it->second.dtype != "int32")
        r.fail("outputs." + name + ".tolerance." + key,
               "\"" + output + "\" is not another int32 output of the lab");
    }
  }
}

void read_parts(const Json& parts, LabConfig& c, const Reader& r) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string where = "parts[" + std::to_string(i) + "]";
    const Json& part = parts[i];
    PartSpec p{part.at("name").get<std::string>(), part.at("title").get<std::string>(),
               part.at("device") == "gpu", part.at("outputs").get<Strings>()};
    for (const auto& o : p.outputs)
      if (!c.outputs.count(o)) r.fail(where + ".outputs", "\"" + o + "\" is not in \"outputs\"");
    if (c.part(p.name)) r.fail(where + ".name", "part \"" + p.name + "\" appears twice");
    c.parts.push_back(p);
  }
}

DatasetSpec read_dataset(const Json& d, const std::string& where, const LabConfig& c,
                         const Reader& r) {
  DatasetSpec s{d.at("name").get<std::string>(), d.at("params"), std::nullopt,
                d.value("parts", Strings{})};
  if (d.contains("seed")) s.seed = d.at("seed").get<uint64_t>();
  for (const auto& p : s.parts)
    if (!c.part(p)) r.fail(where + ".parts", "no part named \"" + p + "\"");
  return s;
}

GroupSpec read_group(const Json& g, const std::string& where, const LabConfig& c, const Reader& r) {
  GroupSpec gs;
  gs.name = g.at("name").get<std::string>();
  gs.hidden = g.at("visibility") == "hidden";
  gs.timing = g.value("timing", false);
  // The schema's backends are backend_names() (lab_schema_keys_test checks that they agree).
  for (const std::string& name : g.at("backends").get<Strings>())
    gs.backends.push_back(backend_named(name).value());
  const Json& ds = g.at("datasets");
  for (size_t d = 0; d < ds.size(); ++d)
    gs.datasets.push_back(
        read_dataset(ds[d], where + ".datasets[" + std::to_string(d) + "]", c, r));
  return gs;
}

void read_groups(const Json& groups, LabConfig& c, const Reader& r) {
  for (size_t g = 0; g < groups.size(); ++g)
    c.groups.push_back(read_group(groups[g], "dataset_groups[" + std::to_string(g) + "]", c, r));
}

// One part's rubric: "speedup", "scalability", "performance", and points per correctness group.
PartRubric read_part_rubric(const Json& pr, const PartSpec& p, const LabConfig& c,
                            const Reader& r) {
  PartRubric e;
  for (const auto& [key, value] : pr.items()) {
    const std::string where = "rubric." + p.name + "." + key;
    if (key == "speedup") {
      e.speedup = {value.at("points").get<double>(), value.at("at_least").get<double>()};
      continue;
    }
    if (key == "scalability") {
      e.scalability = {value.at("points").get<double>(), value.at("small").get<std::string>(),
                       value.at("large").get<std::string>(), value.at("max_growth").get<double>()};
      for (const std::string* name : {&e.scalability.small, &e.scalability.large})
        if (!c.timing_dataset(*name, p.name))
          r.fail(where, "\"" + *name + "\" is not a timing dataset of part \"" + p.name + "\"");
      continue;
    }
    if (key == "performance") {
      e.performance = value.get<double>();
      continue;
    }
    // By name: a lambda may not capture a structured binding before C++20 (clang refuses).
    const bool known =
        std::any_of(c.groups.begin(), c.groups.end(),
                    [&, &name = key](const GroupSpec& g) { return g.name == name && !g.timing; });
    if (!known)
      r.fail(where,
             "is neither \"performance\", \"speedup\", \"scalability\" nor a correctness "
             "dataset group");
    e.group_points[key] = value.get<double>();
  }
  return e;
}

void read_rubric(const Json& rubric, LabConfig& c, const Reader& r) {
  std::vector<std::string> part_names;
  for (const auto& p : c.parts) part_names.push_back(p.name);
  r.only_keys(rubric, "rubric", part_names);
  for (const auto& p : c.parts) {
    if (!rubric.contains(p.name)) r.fail("rubric", "missing \"" + p.name + "\"");
    c.rubric[p.name] = read_part_rubric(rubric[p.name], p, c, r);
  }
}

void read_performance_curve(const Json& pc, LabConfig& c, const Reader& r) {
  c.curve.full_at_ratio = pc.at("full_at_ratio").get<double>();
  c.curve.zero_past_ratio = pc.at("zero_past_ratio").get<double>();
  if (!(c.curve.zero_past_ratio > c.curve.full_at_ratio))
    r.fail("performance_curve", "needs full_at_ratio < zero_past_ratio");
}

void read_sim_time_limit(const Json& st, LabConfig& c, const Reader&) {
  c.sim_time_limit.over_reference = st.at("over_reference").get<double>();
  c.sim_time_limit.floor_s = st.at("floor_s").get<double>();
}

// A public dataset the CPU backend runs: the cost model counts it access by access.
void read_cost_dataset(const Json& v, LabConfig& c, const Reader& r) {
  c.cost_dataset = v.get<std::string>();
  for (const auto& g : c.groups)
    if (!g.hidden && !g.timing && g.on_backend(Backend::sim))
      for (const auto& ds : g.datasets)
        if (ds.name == c.cost_dataset) return;
  r.fail("cost_dataset", "\"" + c.cost_dataset +
                             "\" is no dataset of a public group that the CPU backend runs");
}

void read_sanitize(const Json& sz, LabConfig& c, const Reader&) {
  // The schema's tools are sanitizer_tools() (lab_schema_keys_test checks that they agree).
  c.sanitize_tools = sz.value("tools", c.sanitize_tools);
  c.sanitize_datasets = sz.value("datasets", c.sanitize_datasets);
}

// A whole-file list of names: the schema checked that each is a plain file name.
void read_files(const Json& v, std::vector<std::string>& files) {
  files = v.get<Strings>();
}

// A key of lab.json's top level and what reads it, where it is there (LabConfig's members hold
// the defaults of those left out; the schema says which must be there).
struct Section {
  const char* key;
  void (*read)(const Json& value, LabConfig& c, const Reader& r);
};

// Every key of lab.json's top level, declared here once, in the order they are read: a later
// section may refer to an earlier one (parts name outputs, groups name parts, the rubric names
// groups and timing datasets, the write-up's name must be none of the files').
const Section kSections[] = {
    {"id", read_id},
    {"title", [](const Json& v, LabConfig& c, const Reader&) { c.title = v.get<std::string>(); }},
    {"number", [](const Json& v, LabConfig& c, const Reader&) { c.number = v.get<int>(); }},
    {"summary",
     [](const Json& v, LabConfig& c, const Reader&) { c.summary = v.get<std::string>(); }},
    {"interface",
     [](const Json& v, LabConfig& c, const Reader&) { c.interface = v.get<std::string>(); }},
    {"student_files",
     [](const Json& v, LabConfig& c, const Reader&) { read_files(v, c.student_files); }},
    {"nvcc_flags", [](const Json& v, LabConfig& c, const Reader&) { read_files(v, c.nvcc_flags); }},
    {"driver_files",
     [](const Json& v, LabConfig& c, const Reader&) { read_files(v, c.driver_files); }},
    {"reference_driver_files",
     [](const Json& v, LabConfig& c, const Reader&) { read_files(v, c.reference_driver_files); }},
    {"outputs", read_outputs},
    {"parts", read_parts},
    {"dataset_groups", read_groups},
    {"timing",
     [](const Json& v, LabConfig& c, const Reader& r) { c.timing = LabTiming::parse(v, r); }},
    {"rubric", read_rubric},
    {"performance_curve", read_performance_curve},
    {"sim_time_limit", read_sim_time_limit},
    {"sanitize", read_sanitize},
    {"cost_dataset", read_cost_dataset},
    {"gradescope",
     [](const Json& v, LabConfig& c, const Reader&) { c.gradescope = GradescopePolicy::parse(v); }},
    {"writeup",
     [](const Json& v, LabConfig& c, const Reader& r) { c.writeup = parse_writeup(v, c, r); }},
    {"bench_sweeps", [](const Json& v, LabConfig& c,
                        const Reader& r) { c.bench_sweeps = parse_bench_sweeps(v, c, r); }},
    {"library",
     [](const Json& v, LabConfig& c, const Reader& r) { c.library = parse_library_policy(v, r); }},
};

// Every top-level key the schema allows is one a section reads ("$schema", the editor's link to
// the schema, aside): a key the schema allows and nothing read would be lost without a word.
// Checked once, at the first load.
void check_sections_read_every_key() {
  static const bool checked = [] {
    for (const std::string& key : schema_keys("")) {
      const bool read = std::any_of(std::begin(kSections), std::end(kSections),
                                    [&](const Section& s) { return key == s.key; });
      if (!read && key != "$schema")
        throw std::logic_error("labs/lab.schema.json allows \"" + key +
                               "\", which lab_config.cpp does not read");
    }
    return true;
  }();
  (void)checked;
}

}  // namespace

LabConfig LabConfig::parse(const std::string& text, const std::filesystem::path& lab_json) {
  Reader r(lab_json);
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    throw LabConfigError(lab_json.string() + ": not valid JSON: " + e.what());
  }
  // Types, ranges, keys: the schema's (schema_check.h). What is read below has passed it.
  if (const auto v = schema_violation(lab_schema(), j)) r.fail(v->path, v->why);
  check_sections_read_every_key();
  LabConfig c;
  c.dir = lab_json.parent_path();
  try {
    for (const Section& s : kSections)
      if (j.contains(s.key)) s.read(j.at(s.key), c, r);
  } catch (const Json::exception& e) {
    // A value the schema let through that a section cannot read: the two disagree, which is
    // gpulab's mistake, not the lab's; a logic_error, which fuzz_lab_config counts as a failure.
    throw std::logic_error(lab_json.string() +
                           " met labs/lab.schema.json, but grader/lab/lab_config.cpp cannot read "
                           "it (" +
                           std::string(e.what()) + "): the two disagree");
  }
  return c;
}

const PartSpec* LabConfig::part(const std::string& name) const {
  for (const auto& p : parts)
    if (p.name == name) return &p;
  return nullptr;
}

const DatasetSpec* LabConfig::timing_dataset(const std::string& name, const std::string& part,
                                             const GroupSpec** group) const {
  for (const auto& g : groups)
    if (g.timing)
      for (const auto& ds : g.datasets)
        if (ds.name == name && ds.applies_to(part)) {
          if (group) *group = &g;
          return &ds;
        }
  return nullptr;
}

double LabConfig::part_points(const std::string& part) const {
  const PartRubric& r = rubric.at(part);
  double total = r.timed_points();
  for (const auto& [g, pts] : r.group_points) total += pts;
  return total;
}

LabConfig LabConfig::load_id(const std::filesystem::path& source_root, const std::string& id) {
  std::vector<std::string> ids;
  for (const auto& file : find_lab_files(source_root)) {
    ids.push_back(file.parent_path().filename().string());
    if (ids.back() == id) return load(file);
  }
  throw LabConfigError(unknown_name("lab", id, ids));
}

std::vector<std::filesystem::path> find_lab_files(const std::filesystem::path& source_root) {
  std::vector<std::filesystem::path> files;
  const auto labs = source_root / "labs";
  if (!std::filesystem::is_directory(labs)) return files;
  for (const auto& e : std::filesystem::directory_iterator(labs))
    if (std::filesystem::is_regular_file(e.path() / "lab.json"))
      files.push_back(e.path() / "lab.json");
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpulab
