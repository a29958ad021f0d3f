#include "lab/lab_config.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "lab/lab_json_reader.h"
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
  r.only_keys(w, "writeup", {"file", "points"});
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

LabConfig LabConfig::parse(const std::string& text, const std::filesystem::path& lab_json) {
  Reader r(lab_json);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw LabConfigError(lab_json.string() + ": not valid JSON: " + e.what());
  }
  r.only_keys(j, "lab",
              {"$schema",
               "id",
               "title",
               "number",
               "summary",
               "interface",
               "student_files",
               "driver_files",
               "reference_driver_files",
               "nvcc_flags",
               "parts",
               "outputs",
               "dataset_groups",
               "timing",
               "rubric",
               "performance_curve",
               "sim_time_limit",
               "sanitize",
               "gradescope",
               "writeup",
               "bench_sweeps",
               "library"});
  LabConfig c;
  c.dir = lab_json.parent_path();
  c.id = r.str(j, "id", "lab");
  if (c.id != c.dir.filename().string())
    r.fail("id",
           "\"" + c.id + "\" does not match the folder name \"" + c.dir.filename().string() + "\"");
  c.title = r.str(j, "title", "lab");
  if (j.contains("number")) c.number = r.integer(j, "number", "lab", 1, 1000);
  if (j.contains("summary")) c.summary = r.str(j, "summary", "lab");
  c.interface = r.str(j, "interface", "lab");
  c.student_files = r.strings(r.field(j, "student_files", "lab"), "student_files");
  if (c.student_files.empty()) r.fail("student_files", "must name at least one file");
  for (const auto& f : c.student_files)
    if (f.find('/') != std::string::npos || f.find("..") != std::string::npos)
      r.fail("student_files", "\"" + f + "\" must be a plain file name");
  if (j.contains("nvcc_flags")) c.nvcc_flags = r.strings(j["nvcc_flags"], "nvcc_flags");
  c.driver_files = {"driver.cpp"};
  if (j.contains("driver_files")) c.driver_files = r.strings(j["driver_files"], "driver_files");
  for (const auto& f : c.driver_files)
    if (f.find('/') != std::string::npos || f.find("..") != std::string::npos)
      r.fail("driver_files", "\"" + f + "\" must be a plain file name");
  if (j.contains("reference_driver_files"))
    c.reference_driver_files = r.strings(j["reference_driver_files"], "reference_driver_files");
  for (const auto& f : c.reference_driver_files)
    if (f.find('/') != std::string::npos || f.find("..") != std::string::npos)
      r.fail("reference_driver_files", "\"" + f + "\" must be a plain file name");

  const auto& outputs = r.field(j, "outputs", "lab");
  if (!outputs.is_object() || outputs.empty()) r.fail("outputs", "must be a non-empty object");
  for (const auto& [name, o] : outputs.items()) {
    const std::string where = "outputs." + name;
    r.only_keys(o, where, {"dtype", "tolerance"});
    OutputSpec s{name, r.str(o, "dtype", where), {}};
    if (s.dtype != "float32" && s.dtype != "int32")
      r.fail(where + ".dtype", "\"" + s.dtype + "\" is not supported (float32 or int32)");
    const auto& t = r.field(o, "tolerance", where);
    s.tolerance.model = r.str(t, "model", where + ".tolerance");
    // Each model has keys of its own.
    if (s.tolerance.model == "exact")
      r.only_keys(t, where + ".tolerance", {"model"});
    else if (s.tolerance.segment_sets())
      r.only_keys(t, where + ".tolerance",
                  {"model", "starts", "counts", "segment", "segment_shape"});
    else if (s.tolerance.model == "sum_magnitude")
      r.only_keys(t, where + ".tolerance",
                  {"model", "K", "unit_roundoff", "terms", "heads", "position"});
    if (s.tolerance.model == "exact") {
      if (s.dtype != "int32")
        r.fail(where + ".tolerance.model", "\"exact\" compares int32 outputs only");
      c.outputs[name] = s;
      continue;
    }
    if (s.tolerance.segment_sets()) {
      if (s.dtype != "int32")
        r.fail(where + ".tolerance.model", "\"segment_sets\" compares int32 outputs only");
      s.tolerance.starts = r.str(t, "starts", where + ".tolerance");
      s.tolerance.counts = r.str(t, "counts", where + ".tolerance");
      if (t.contains("segment"))
        s.tolerance.segment_noun = r.str(t, "segment", where + ".tolerance");
      if (t.contains("segment_shape"))
        s.tolerance.segment_shape =
            r.strings(t["segment_shape"], where + ".tolerance.segment_shape");
      c.outputs[name] = s;
      continue;
    }
    if (s.tolerance.model != "sum_magnitude")
      r.fail(where + ".tolerance.model", "unknown model \"" + s.tolerance.model +
                                             "\" (known: sum_magnitude, exact, segment_sets)");
    if (s.dtype != "float32")
      r.fail(where + ".tolerance.model", "\"sum_magnitude\" compares float32 outputs only");
    s.tolerance.K = r.num(t, "K", where + ".tolerance");
    s.tolerance.unit_roundoff = r.num(t, "unit_roundoff", where + ".tolerance");
    if (r.field(t, "terms", where + ".tolerance").is_number()) {
      s.tolerance.terms_constant = t["terms"].get<double>();
      if (!(s.tolerance.terms_constant >= 1))
        r.fail(where + ".tolerance.terms", "a constant count of terms must be >= 1");
    } else {
      s.tolerance.terms = r.str(t, "terms", where + ".tolerance");
    }
    if (t.contains("heads")) {
      s.tolerance.heads = r.str(t, "heads", where + ".tolerance");
      if (!s.tolerance.prefix_terms())
        r.fail(where + ".tolerance.heads", "only a prefix sum (\"terms\": \"prefix\") has heads");
    }
    if (t.contains("position")) {
      if (!t["position"].is_boolean())
        r.fail(where + ".tolerance.position", "must be true or false");
      s.tolerance.position = t["position"].get<bool>();
    }
    if (!(s.tolerance.K > 0) || !(s.tolerance.unit_roundoff > 0))
      r.fail(where + ".tolerance", "K and unit_roundoff must be > 0");
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

  const auto& parts = r.field(j, "parts", "lab");
  if (!parts.is_array() || parts.empty()) r.fail("parts", "must be a non-empty array");
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string where = "parts[" + std::to_string(i) + "]";
    r.only_keys(parts[i], where, {"name", "title", "device", "outputs"});
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

  const auto& groups = r.field(j, "dataset_groups", "lab");
  if (!groups.is_array() || groups.empty()) r.fail("dataset_groups", "must be a non-empty array");
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::string where = "dataset_groups[" + std::to_string(g) + "]";
    r.only_keys(groups[g], where, {"name", "visibility", "timing", "backends", "datasets"});
    GroupSpec gs;
    gs.name = r.str(groups[g], "name", where);
    const std::string vis = r.str(groups[g], "visibility", where);
    if (vis != "public" && vis != "hidden")
      r.fail(where + ".visibility", "must be \"public\" or \"hidden\"");
    gs.hidden = vis == "hidden";
    if (groups[g].contains("timing") && !groups[g]["timing"].is_boolean())
      r.fail(where + ".timing", "must be true or false");
    gs.timing = groups[g].value("timing", false);
    for (const std::string& name :
         r.strings(r.field(groups[g], "backends", where), where + ".backends")) {
      const std::optional<Backend> b = backend_named(name);
      if (!b)
        r.fail(where + ".backends",
               "names \"" + name + "\", which is no backend: one of " + joined(backend_names()));
      gs.backends.push_back(*b);
    }
    const auto& ds = r.field(groups[g], "datasets", where);
    if (!ds.is_array() || ds.empty()) r.fail(where + ".datasets", "must be a non-empty array");
    for (size_t d = 0; d < ds.size(); ++d) {
      const std::string dw = where + ".datasets[" + std::to_string(d) + "]";
      r.only_keys(ds[d], dw, {"name", "params", "seed", "parts"});  // params: the generator's
      DatasetSpec s{r.str(ds[d], "name", dw), r.field(ds[d], "params", dw), std::nullopt, {}};
      if (!s.params.is_object()) r.fail(dw + ".params", "must be an object");
      if (ds[d].contains("seed")) {
        if (!ds[d]["seed"].is_number_unsigned()) r.fail(dw + ".seed", "must be an integer >= 0");
        s.seed = ds[d]["seed"].get<uint64_t>();
      } else if (!gs.hidden) {
        r.fail(dw, "a public dataset needs a fixed \"seed\"");
      }
      if (ds[d].contains("parts")) s.parts = r.strings(ds[d]["parts"], dw + ".parts");
      for (const auto& p : s.parts)
        if (!c.part(p)) r.fail(dw + ".parts", "no part named \"" + p + "\"");
      gs.datasets.push_back(s);
    }
    c.groups.push_back(gs);
  }

  c.timing = LabTiming::parse(j.value("timing", nlohmann::json()), r);
  const auto& rubric = r.field(j, "rubric", "lab");
  std::vector<std::string> part_names;
  for (const auto& p : c.parts) part_names.push_back(p.name);
  r.only_keys(rubric, "rubric", part_names);
  for (const auto& p : c.parts) {
    const auto& pr = r.field(rubric, p.name, "rubric");
    PartRubric e;
    for (const auto& [key, value] : pr.items()) {
      const std::string where = "rubric." + p.name + "." + key;
      if (key == "speedup") {
        r.only_keys(value, where, {"points", "at_least"});
        e.speedup = {r.num(value, "points", where), r.num(value, "at_least", where)};
        if (e.speedup.points < 0 || !(e.speedup.at_least >= 1))
          r.fail(where, "needs points >= 0 and at_least >= 1");
        continue;
      }
      if (key == "scalability") {
        r.only_keys(value, where, {"points", "small", "large", "max_growth"});
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
    c.rubric[p.name] = e;
  }
  if (j.contains("performance_curve")) {
    const auto& pc = j["performance_curve"];
    r.only_keys(pc, "performance_curve", {"full_at_ratio", "zero_past_ratio"});
    c.curve.full_at_ratio = r.num(pc, "full_at_ratio", "performance_curve");
    c.curve.zero_past_ratio = r.num(pc, "zero_past_ratio", "performance_curve");
    if (!(c.curve.full_at_ratio >= 1) || !(c.curve.zero_past_ratio > c.curve.full_at_ratio))
      r.fail("performance_curve", "needs 1 <= full_at_ratio < zero_past_ratio");
  }
  if (j.contains("sim_time_limit")) {
    const auto& st = j["sim_time_limit"];
    r.only_keys(st, "sim_time_limit", {"over_reference", "floor_s"});
    c.sim_time_limit.over_reference = r.num(st, "over_reference", "sim_time_limit");
    c.sim_time_limit.floor_s = r.num(st, "floor_s", "sim_time_limit");
    if (!(c.sim_time_limit.over_reference >= 1) || !(c.sim_time_limit.floor_s > 0))
      r.fail("sim_time_limit", "needs over_reference >= 1 and floor_s > 0");
  }
  if (j.contains("sanitize")) {
    const auto& sz = j["sanitize"];
    r.only_keys(sz, "sanitize", {"tools", "datasets"});
    if (sz.contains("tools")) {
      c.sanitize_tools = r.strings(sz["tools"], "sanitize.tools");
      if (c.sanitize_tools.empty()) r.fail("sanitize.tools", "must name at least one tool");
    }
    if (sz.contains("datasets"))
      c.sanitize_datasets = r.integer(sz, "datasets", "sanitize", 1, 1000);
    for (const auto& t : c.sanitize_tools) {
      if (!is_sanitizer_tool(t))
        r.fail("sanitize.tools", unknown_name("compute-sanitizer tool", t, sanitizer_tools()));
      if (std::count(c.sanitize_tools.begin(), c.sanitize_tools.end(), t) > 1)
        r.fail("sanitize.tools", "names \"" + t + "\" twice");
    }
  }
  c.gradescope = GradescopePolicy::parse(j.value("gradescope", nlohmann::json()), r);
  if (j.contains("writeup")) c.writeup = parse_writeup(j["writeup"], c, r);
  if (j.contains("bench_sweeps")) c.bench_sweeps = parse_bench_sweeps(j["bench_sweeps"], c, r);
  if (j.contains("library")) c.library = parse_library_policy(j["library"], r);
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
