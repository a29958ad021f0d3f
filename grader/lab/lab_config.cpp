#include "lab/lab_config.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "lab/lab_json_reader.h"
#include "lab/lab_schema.h"
#include "lab/sanitizer_tools.h"
#include "text/joined_words.h"
#include "text/nearest_name.h"

namespace gpulab {

std::vector<std::string> PartSpec::runner_env() const {
  if (gpu) return {};
  return {"CUDA_VISIBLE_DEVICES="};
}

namespace {

using Reader = LabJsonReader;

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// lab.json's "writeup", once the lab's files are known: its name must be none of them, since
// the intake would take it for code (or code for it).
WriteupSpec parse_writeup(const nlohmann::json& w, const LabConfig& c, const Reader& r) {
  r.only_keys(w, "writeup", schema_keys("/properties/writeup"));
  WriteupSpec s{r.str(w, "file", "writeup"), r.num(w, "points", "writeup")};
  if (s.file.size() <= 3 || !ends_with(s.file, ".md") ||
      s.file.find_first_of("/\\") != std::string::npos || s.file.find("..") != std::string::npos)
    r.fail("writeup.file", "\"" + s.file + "\" must be a Markdown file's plain name, NAME.md");
  for (const auto* files : {&c.student_files, &c.driver_files, &c.reference_driver_files})
    if (std::find(files->begin(), files->end(), s.file) != files->end())
      r.fail("writeup.file", "\"" + s.file +
                                 "\" is a file of the lab's code; the write-up needs a "
                                 "name of its own");
  if (!(s.points > 0) || !std::isfinite(s.points))
    r.fail("writeup.points", "must be a number of points > 0");
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

void plain_file_names(const std::vector<std::string>& files, const std::string& key,
                      const Reader& r) {
  for (const auto& f : files)
    if (f.find('/') != std::string::npos || f.find("..") != std::string::npos)
      r.fail(key, "\"" + f + "\" must be a plain file name");
}

void read_id(const Json& v, LabConfig& c, const Reader& r) {
  c.id = r.str_at(v, "lab.id");
  if (c.id != c.dir.filename().string())
    r.fail("id",
           "\"" + c.id + "\" does not match the folder name \"" + c.dir.filename().string() + "\"");
}

void read_student_files(const Json& v, LabConfig& c, const Reader& r) {
  c.student_files = r.strings(v, "student_files");
  if (c.student_files.empty()) r.fail("student_files", "must name at least one file");
  plain_file_names(c.student_files, "student_files", r);
}

void read_driver_files(const Json& v, LabConfig& c, const Reader& r) {
  c.driver_files =
      v.is_null() ? std::vector<std::string>{"driver.cpp"} : r.strings(v, "driver_files");
  plain_file_names(c.driver_files, "driver_files", r);
}

void read_reference_driver_files(const Json& v, LabConfig& c, const Reader& r) {
  c.reference_driver_files = r.strings(v, "reference_driver_files");
  plain_file_names(c.reference_driver_files, "reference_driver_files", r);
}

// One output's tolerance: each model has keys of its own, and compares one dtype.
void read_tolerance(const Json& t, OutputSpec& s, const std::string& where, const Reader& r) {
  const std::string at = where + ".tolerance";
  s.tolerance.model = r.str(t, "model", at);
  if (s.tolerance.exact()) {
    r.only_keys(t, at, schema_keys("/$defs/exact"));
    if (s.dtype != "int32") r.fail(at + ".model", "\"exact\" compares int32 outputs only");
    return;
  }
  if (s.tolerance.segment_sets()) {
    r.only_keys(t, at, schema_keys("/$defs/segment_sets"));
    if (s.dtype != "int32") r.fail(at + ".model", "\"segment_sets\" compares int32 outputs only");
    s.tolerance.starts = r.str(t, "starts", at);
    s.tolerance.counts = r.str(t, "counts", at);
    if (t.contains("segment")) s.tolerance.segment_noun = r.str(t, "segment", at);
    if (t.contains("segment_shape"))
      s.tolerance.segment_shape = r.strings(t["segment_shape"], at + ".segment_shape");
    return;
  }
  if (s.tolerance.model != "sum_magnitude")
    r.fail(at + ".model", "unknown model \"" + s.tolerance.model +
                              "\" (known: sum_magnitude, exact, segment_sets)");
  r.only_keys(t, at, schema_keys("/$defs/sum_magnitude"));
  if (s.dtype != "float32")
    r.fail(at + ".model", "\"sum_magnitude\" compares float32 outputs only");
  s.tolerance.K = r.num(t, "K", at);
  s.tolerance.unit_roundoff = r.num(t, "unit_roundoff", at);
  if (r.field(t, "terms", at).is_number()) {
    s.tolerance.terms_constant = t["terms"].get<double>();
    if (!(s.tolerance.terms_constant >= 1))
      r.fail(at + ".terms", "a constant count of terms must be >= 1");
  } else {
    s.tolerance.terms = r.str(t, "terms", at);
  }
  if (t.contains("heads")) {
    s.tolerance.heads = r.str(t, "heads", at);
    if (!s.tolerance.prefix_terms())
      r.fail(at + ".heads", "only a prefix sum (\"terms\": \"prefix\") has heads");
  }
  if (t.contains("position")) {
    if (!t["position"].is_boolean()) r.fail(at + ".position", "must be true or false");
    s.tolerance.position = t["position"].get<bool>();
  }
  if (!(s.tolerance.K > 0) || !(s.tolerance.unit_roundoff > 0))
    r.fail(at, "K and unit_roundoff must be > 0");
}

void read_outputs(const Json& outputs, LabConfig& c, const Reader& r) {
  if (!outputs.is_object() || outputs.empty()) r.fail("outputs", "must be a non-empty object");
  for (const auto& [name, o] : outputs.items()) {
    const std::string where = "outputs." + name;
    r.only_keys(o, where, schema_keys("/$defs/output"));
    OutputSpec s{name, r.str(o, "dtype", where), {}};
    if (s.dtype != "float32" && s.dtype != "int32")
      r.fail(where + ".dtype", "\"" + s.dtype + "\" is not supported (float32 or int32)");
    read_tolerance(r.field(o, "tolerance", where), s, where, r);
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
  if (!parts.is_array() || parts.empty()) r.fail("parts", "must be a non-empty array");
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string where = "parts[" + std::to_string(i) + "]";
    r.only_keys(parts[i], where, schema_keys("/$defs/part"));
    PartSpec p{r.str(parts[i], "name", where), r.str(parts[i], "title", where), false, {}};
    const std::string device = r.str(parts[i], "device", where);
    if (device != "gpu" && device != "cpu") r.fail(where + ".device", "must be \"gpu\" or \"cpu\"");
    p.gpu = device == "gpu";
    p.outputs = r.strings(r.field(parts[i], "outputs", where), where + ".outputs");
    for (const auto& o : p.outputs)
      if (!c.outputs.count(o)) r.fail(where + ".outputs", "\"" + o + "\" is not in \"outputs\"");
    if (c.part(p.name)) r.fail(where + ".name", "part \"" + p.name + "\" appears twice");
    c.parts.push_back(p);
  }
}

DatasetSpec read_dataset(const Json& d, const std::string& where, const GroupSpec& group,
                         const LabConfig& c, const Reader& r) {
  r.only_keys(d, where, schema_keys("/$defs/dataset"));  // params: the generator's
  DatasetSpec s{r.str(d, "name", where), r.field(d, "params", where), std::nullopt, {}};
  if (!s.params.is_object()) r.fail(where + ".params", "must be an object");
  if (d.contains("seed")) {
    if (!d["seed"].is_number_unsigned()) r.fail(where + ".seed", "must be an integer >= 0");
    s.seed = d["seed"].get<uint64_t>();
  } else if (!group.hidden) {
    r.fail(where, "a public dataset needs a fixed \"seed\"");
  }
  if (d.contains("parts")) s.parts = r.strings(d["parts"], where + ".parts");
  for (const auto& p : s.parts)
    if (!c.part(p)) r.fail(where + ".parts", "no part named \"" + p + "\"");
  return s;
}

GroupSpec read_group(const Json& g, const std::string& where, const LabConfig& c, const Reader& r) {
  r.only_keys(g, where, schema_keys("/$defs/group"));
  GroupSpec gs;
  gs.name = r.str(g, "name", where);
  const std::string vis = r.str(g, "visibility", where);
  if (vis != "public" && vis != "hidden")
    r.fail(where + ".visibility", "must be \"public\" or \"hidden\"");
  gs.hidden = vis == "hidden";
  if (g.contains("timing") && !g["timing"].is_boolean())
    r.fail(where + ".timing", "must be true or false");
  gs.timing = g.value("timing", false);
  for (const std::string& name : r.strings(r.field(g, "backends", where), where + ".backends")) {
    const std::optional<Backend> b = backend_named(name);
    if (!b)
      r.fail(where + ".backends",
             "names \"" + name + "\", which is no backend: one of " + joined(backend_names()));
    gs.backends.push_back(*b);
  }
  const auto& ds = r.field(g, "datasets", where);
  if (!ds.is_array() || ds.empty()) r.fail(where + ".datasets", "must be a non-empty array");
  for (size_t d = 0; d < ds.size(); ++d)
    gs.datasets.push_back(
        read_dataset(ds[d], where + ".datasets[" + std::to_string(d) + "]", gs, c, r));
  return gs;
}

void read_groups(const Json& groups, LabConfig& c, const Reader& r) {
  if (!groups.is_array() || groups.empty()) r.fail("dataset_groups", "must be a non-empty array");
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
      r.only_keys(value, where, schema_keys("/$defs/part_rubric/properties/speedup"));
      e.speedup = {r.num(value, "points", where), r.num(value, "at_least", where)};
      if (e.speedup.points < 0 || !(e.speedup.at_least >= 1))
        r.fail(where, "needs points >= 0 and at_least >= 1");
      continue;
    }
    if (key == "scalability") {
      r.only_keys(value, where, schema_keys("/$defs/part_rubric/properties/scalability"));
      e.scalability = {r.num(value, "points", where), r.str(value, "small", where),
                       r.str(value, "large", where), r.num(value, "max_growth", where)};
      if (e.scalability.points < 0 || !(e.scalability.max_growth >= 1))
        r.fail(where, "needs points >= 0 and max_growth >= 1");
      for (const std::string* name : {&e.scalability.small, &e.scalability.large})
        if (!c.timing_dataset(*name, p.name))
          r.fail(where, "\"" + *name + "\" is not a timing dataset of part \"" + p.name + "\"");
      continue;
    }
    if (!value.is_number() || value.get<double>() < 0) r.fail(where, "must be a number >= 0");
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
  for (const auto& p : c.parts)
    c.rubric[p.name] = read_part_rubric(r.field(rubric, p.name, "rubric"), p, c, r);
}

void read_performance_curve(const Json& pc, LabConfig& c, const Reader& r) {
  r.only_keys(pc, "performance_curve", schema_keys("/properties/performance_curve"));
  c.curve.full_at_ratio = r.num(pc, "full_at_ratio", "performance_curve");
  c.curve.zero_past_ratio = r.num(pc, "zero_past_ratio", "performance_curve");
  if (!(c.curve.full_at_ratio >= 1) || !(c.curve.zero_past_ratio > c.curve.full_at_ratio))
    r.fail("performance_curve", "needs 1 <= full_at_ratio < zero_past_ratio");
}

void read_sim_time_limit(const Json& st, LabConfig& c, const Reader& r) {
  r.only_keys(st, "sim_time_limit", schema_keys("/properties/sim_time_limit"));
  c.sim_time_limit.over_reference = r.num(st, "over_reference", "sim_time_limit");
  c.sim_time_limit.floor_s = r.num(st, "floor_s", "sim_time_limit");
  if (!(c.sim_time_limit.over_reference >= 1) || !(c.sim_time_limit.floor_s > 0))
    r.fail("sim_time_limit", "needs over_reference >= 1 and floor_s > 0");
}

void read_sanitize(const Json& sz, LabConfig& c, const Reader& r) {
  r.only_keys(sz, "sanitize", schema_keys("/properties/sanitize"));
  if (sz.contains("tools")) {
    c.sanitize_tools = r.strings(sz["tools"], "sanitize.tools");
    if (c.sanitize_tools.empty()) r.fail("sanitize.tools", "must name at least one tool");
  }
  if (sz.contains("datasets")) c.sanitize_datasets = r.integer(sz, "datasets", "sanitize", 1, 1000);
  for (const auto& t : c.sanitize_tools) {
    if (!is_sanitizer_tool(t))
      r.fail("sanitize.tools", unknown_name("compute-sanitizer tool", t, sanitizer_tools()));
    if (std::count(c.sanitize_tools.begin(), c.sanitize_tools.end(), t) > 1)
      r.fail("sanitize.tools", "names \"" + t + "\" twice");
  }
}

// A key of lab.json's top level: whether it must be there, and what reads it (given null where
// a `defaulted` key is absent, so that it sets its default).
enum class Presence { required, optional, defaulted };
struct Section {
  const char* key;
  Presence presence;
  void (*read)(const Json& value, LabConfig& c, const Reader& r);
};

// Every key of lab.json's top level, declared here once, in the order they are read: a later
// section may refer to an earlier one (parts name outputs, groups name parts, the rubric names
// groups and timing datasets, the write-up's name must be none of the files').
const Section kSections[] = {
    {"id", Presence::required, read_id},
    {"title", Presence::required,
     [](const Json& v, LabConfig& c, const Reader& r) { c.title = r.str_at(v, "lab.title"); }},
    {"number", Presence::optional,
     [](const Json& v, LabConfig& c, const Reader& r) {
       c.number = r.integer_at(v, "lab.number", 1, 1000);
     }},
    {"summary", Presence::optional,
     [](const Json& v, LabConfig& c, const Reader& r) { c.summary = r.str_at(v, "lab.summary"); }},
    {"interface", Presence::required,
     [](const Json& v, LabConfig& c, const Reader& r) {
       c.interface = r.str_at(v, "lab.interface");
     }},
    {"student_files", Presence::required, read_student_files},
    {"nvcc_flags", Presence::optional,
     [](const Json& v, LabConfig& c, const Reader& r) {
       c.nvcc_flags = r.strings(v, "nvcc_flags");
     }},
    {"driver_files", Presence::defaulted, read_driver_files},
    {"reference_driver_files", Presence::optional, read_reference_driver_files},
    {"outputs", Presence::required, read_outputs},
    {"parts", Presence::required, read_parts},
    {"dataset_groups", Presence::required, read_groups},
    {"timing", Presence::defaulted,
     [](const Json& v, LabConfig& c, const Reader& r) { c.timing = LabTiming::parse(v, r); }},
    {"rubric", Presence::required, read_rubric},
    {"performance_curve", Presence::optional, read_performance_curve},
    {"sim_time_limit", Presence::optional, read_sim_time_limit},
    {"sanitize", Presence::optional, read_sanitize},
    {"gradescope", Presence::defaulted,
     [](const Json& v, LabConfig& c, const Reader& r) {
       c.gradescope = GradescopePolicy::parse(v, r);
     }},
    {"writeup", Presence::optional,
     [](const Json& v, LabConfig& c, const Reader& r) { c.writeup = parse_writeup(v, c, r); }},
    {"bench_sweeps", Presence::optional,
     [](const Json& v, LabConfig& c, const Reader& r) {
       c.bench_sweeps = parse_bench_sweeps(v, c, r);
     }},
    {"library", Presence::optional,
     [](const Json& v, LabConfig& c, const Reader& r) { c.library = parse_library_policy(v, r); }},
};

// The schema's top-level keys, each of which a section reads ("$schema", the editor's link to
// the schema, aside): a key the schema allows and nothing read would be lost without a word.
const std::vector<std::string>& top_level_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> all = schema_keys("");
    for (const std::string& key : all) {
      const bool read = std::any_of(std::begin(kSections), std::end(kSections),
                                    [&](const Section& s) { return key == s.key; });
      if (!read && key != "$schema")
        throw std::logic_error("labs/lab.schema.json allows \"" + key +
                               "\", which lab_config.cpp does not read");
    }
    return all;
  }();
  return keys;
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
  r.only_keys(j, "lab", top_level_keys());
  LabConfig c;
  c.dir = lab_json.parent_path();
  for (const Section& s : kSections) {
    if (j.contains(s.key))
      s.read(j[s.key], c, r);
    else if (s.presence == Presence::required)
      r.field(j, s.key, "lab");  // throws, naming the key
    else if (s.presence == Presence::defaulted)
      s.read(Json(), c, r);
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
