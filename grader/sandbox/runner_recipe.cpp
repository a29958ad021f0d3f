#include "sandbox/runner_recipe.h"

#include <algorithm>
#include <fstream>
#include <regex>

#include "device.h"

namespace gpulab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The architecture nvcc compiles for where CMake says "native" and this process sees no GPU.
constexpr const char* kNoDeviceArch = "sm_90";

[[noreturn]] void fail(const fs::path& manifest, const std::string& what) {
  throw RecipeError("the build manifest " + manifest.string() + " " + what +
                    " (CMake writes it: rebuild gpulab, cmake --build <build dir>)");
}

const json& member(const json& obj, const std::string& key, const std::string& where,
                   const fs::path& manifest, json::value_t type) {
  if (!obj.is_object() || !obj.contains(key)) fail(manifest, "has no \"" + where + key + "\"");
  const json& v = obj.at(key);
  if (v.type() != type)
    fail(manifest, "has \"" + where + key + "\" of the wrong type (" + v.type_name() + ")");
  return v;
}

std::string text(const json& obj, const std::string& key, const std::string& where,
                 const fs::path& manifest) {
  return member(obj, key, where, manifest, json::value_t::string).get<std::string>();
}

std::vector<std::string> texts(const json& obj, const std::string& key, const std::string& where,
                               const fs::path& manifest) {
  std::vector<std::string> out;
  for (const json& v : member(obj, key, where, manifest, json::value_t::array)) {
    if (!v.is_string()) fail(manifest, "has a non-string in \"" + where + key + "\"");
    out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

std::string linked_archive_description(const std::string& role) {
  if (role == "harness") return "gpulab's harness";
  if (role == "driver") return "the lab's driver";
  if (role == "runtime") return "the CPU backend's runtime";
  return "";
}

std::vector<std::string> cuda_arch_flags(const std::vector<std::string>& architectures,
                                         const fs::path& manifest) {
  static const std::regex kEntry(R"(([0-9]+[a-z]?)(-real|-virtual)?)");  // "90a-real"
  std::vector<std::string> flags;
  for (const std::string& a : architectures) {
    std::smatch m;
    if (a == "native") {
      const DeviceInfo dev = device_preflight();
      flags.push_back("-arch=" + (dev.usable ? dev.arch() : std::string(kNoDeviceArch)));
    } else if (a == "all" || a == "all-major") {
      flags.push_back("-arch=" + a);
    } else if (std::regex_match(a, m, kEntry)) {
      const std::string n = m[1];
      const std::string code = m[2] == "-real"      ? "sm_" + n
                               : m[2] == "-virtual" ? "compute_" + n
                                                    : "[compute_" + n + ",sm_" + n + "]";
      flags.push_back("--generate-code=arch=compute_" + n + ",code=" + code);
    } else {
      fail(manifest, "names the CUDA architecture \"" + a + "\", which CMake would not take");
    }
  }
  return flags;
}

std::vector<std::string> compile_command(const RunnerRecipe& r, RecipeUse use, const fs::path& src,
                                         const fs::path& object) {
  std::vector<std::string> cmd = {r.compiler.string(), "-std=c++" + r.cxx_standard};
  cmd.insert(cmd.end(), r.arch_flags.begin(), r.arch_flags.end());
  cmd.insert(cmd.end(), r.nvcc_flags.begin(), r.nvcc_flags.end());
  if (r.backend == Backend::cuda) cmd.push_back(kLineInfoFlag);
  if (use == RecipeUse::trusted)
    cmd.insert(cmd.end(), r.warning_flags.begin(), r.warning_flags.end());
  for (const fs::path& dir : r.include_dirs) cmd.insert(cmd.end(), {"-I", dir.string()});
  cmd.insert(cmd.end(), {"-c", src.string(), "-o", object.string()});
  return cmd;
}

std::vector<std::string> include_tree_command(const RunnerRecipe& r, RecipeUse use,
                                              const fs::path& src) {
  std::vector<std::string> cmd = compile_command(r, use, src, "/dev/null");
  std::replace(cmd.begin(), cmd.end(), std::string("-c"), std::string("-M"));
  cmd.insert(cmd.end(), {"-Xcompiler", "-H,-w"});
  return cmd;
}

std::vector<std::string> dependency_command(const RunnerRecipe& r, const fs::path& src,
                                            const fs::path& rule) {
  std::vector<std::string> cmd = compile_command(r, RecipeUse::student, src, rule);
  std::replace(cmd.begin(), cmd.end(), std::string("-c"), std::string("-M"));
  return cmd;
}

std::vector<std::string> link_command(const RunnerRecipe& r, const std::vector<fs::path>& objects,
                                      const fs::path& runner) {
  std::vector<std::string> cmd = {r.compiler.string()};
  cmd.insert(cmd.end(), r.arch_flags.begin(), r.arch_flags.end());
  cmd.insert(cmd.end(), {"-o", runner.string()});
  // The driver registers its parts from static initializers nothing else references, so the
  // linker must keep the whole archive; the harness goes whole too, so that a duplicate of any
  // of its definitions is an error even where the symbol policy would miss it. nvcc moves
  // -Xlinker options after the objects but passes host compiler options before them (so the
  // archives' copies of a weak name are kept); gpulab-sim-cc does the same.
  std::string whole = "-Xcompiler=-Xlinker,--whole-archive";
  for (const LinkedArchive& a : r.link_whole) whole += ",-Xlinker," + a.path.string();
  cmd.push_back(whole + ",-Xlinker,--no-whole-archive");
  for (const fs::path& o : objects) cmd.push_back(o.string());
  return cmd;
}

fs::path recipe_manifest(const Paths& paths, const std::string& lab) {
  return paths.build / "lib" / "manifests" / (lab + ".json");
}

RunnerRecipe parse_recipe(const json& doc, const fs::path& manifest, const LabConfig& lab,
                          Backend backend) {
  RunnerRecipe r;
  r.manifest = manifest;
  r.backend = backend;
  if (!doc.is_object()) fail(manifest, "is not a JSON object");
  r.lab = text(doc, "lab", "", manifest);
  if (r.lab != lab.id) fail(manifest, "is for the lab \"" + r.lab + "\", not \"" + lab.id + "\"");
  r.cxx_standard = text(doc, "cxx_standard", "", manifest);
  r.nvcc_flags = texts(doc, "nvcc_flags", "", manifest);
  if (r.nvcc_flags != lab.nvcc_flags)
    fail(manifest, "has other nvcc_flags than " + (lab.dir / "lab.json").string());
  for (const std::string& d : texts(doc, "include_dirs", "", manifest)) r.include_dirs.push_back(d);
  // Copies, not references: GCC 13 takes a reference bound to member()'s result for a
  // dangling one (its arguments are temporaries), and the objects are small.
  const json backends = member(doc, "backends", "", manifest, json::value_t::object);
  const std::string name = backend_name(backend);
  if (!backends.contains(name))
    fail(manifest, "has no recipe for the " + name + " backend (gpulab was built without it)");
  const std::string where = "backends." + name + ".";
  const json b = member(backends, name, "backends.", manifest, json::value_t::object);
  r.compiler = text(b, "compiler", where, manifest);
  if (r.compiler.empty()) fail(manifest, "has an empty \"" + where + "compiler\"");
  r.architectures = texts(b, "architectures", where, manifest);
  r.warning_flags = texts(b, "warning_flags", where, manifest);
  const json link_whole = member(b, "link_whole", where, manifest, json::value_t::array);
  for (const json& a : link_whole) {
    const std::string w = where + "link_whole[].";
    r.link_whole.push_back({text(a, "role", w, manifest), text(a, "path", w, manifest)});
    if (linked_archive_description(r.link_whole.back().role).empty())
      fail(manifest, "has the unknown role \"" + r.link_whole.back().role + "\" in \"" + w +
                         "role\" (harness, driver or runtime)");
  }
  for (const char* role : {"harness", "driver"}) {
    size_t n = 0;
    for (const LinkedArchive& a : r.link_whole) n += a.role == role;
    if (n != 1)
      fail(manifest, "has no single \"" + std::string(role) + "\" in \"" + where + "link_whole\"");
  }
  r.arch_flags = cuda_arch_flags(r.architectures, manifest);
  return r;
}

RunnerRecipe load_recipe(const Paths& paths, const LabConfig& lab, Backend backend) {
  const fs::path manifest = recipe_manifest(paths, lab.id);
  std::ifstream in(manifest);
  if (!in) fail(manifest, "cannot be read (is gpulab built for the lab " + lab.id + "?)");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {
    fail(manifest, std::string("is not valid JSON: ") + e.what());
  }
  return parse_recipe(doc, manifest, lab, backend);
}

}  // namespace gpulab
