// Random hostile input for what reads and removes a run's leftovers: a few hundred trees for
// grader/files/remove_tree.h (every kind of entry, names of any bytes, deep chains, links out of
// the tree and in loops, folders closed to their owner) and a few hundred documents for
// grader/run/run_json.h (deep, wide, truncated, corrupted, invalid UTF-8, NUL bytes). Seeded, so
// that a failure repeats: each tree must be gone with nothing outside it touched and no
// descriptor left open; each document must give nlohmann's value where it is JSON within the
// limits and a problem where it is not, never an exception, within the memory bound.
#include <doctest/doctest.h>

#include <cstdio>
#include <random>

#include "files/remove_tree.h"
#include "hostile_tree.h"
#include "peak_memory.h"
#include "run/run_json.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr unsigned kSeed = 36;
constexpr int kTrees = 200;
constexpr int kDocuments = 300;

// A die: 0 to n - 1.
size_t roll(std::mt19937& rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

// 1 to `longest` bytes, any but '/' and NUL, never "." or "..".
std::string random_name(std::mt19937& rng, size_t longest) {
  std::string name(1 + roll(rng, longest), 'x');
  for (char& c : name) c = static_cast<char>(1 + roll(rng, 255));
  for (char& c : name)
    if (c == '/') c = '\n';
  return name == "." || name == ".." ? name + "x" : name;
}

size_t open_descriptors() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// One random tree at `top`; its links lead to `outside` (and never above the test's folder,
// so that a remover that followed them would remove nothing but the test's).
void make_random_tree(std::mt19937& rng, const fs::path& top, const fs::path& outside) {
  fs::create_directory(top);
  std::vector<test::FolderFd> folders;
  folders.emplace_back(top);
  const std::vector<std::string> targets = {
      outside.string(), (outside / "keep.txt").string(), top.string(), ".", "..", "nowhere"};
  const int entries = 5 + static_cast<int>(roll(rng, 60));
  for (int i = 0; i < entries; ++i) {
    const int at = folders[roll(rng, folders.size())].get();
    const std::string name = random_name(rng, roll(rng, 8) == 0 ? 255 : 24);
    try {  // a name made twice is made once: the second fails, and that is no matter
      switch (roll(rng, 10)) {
        case 0:
        case 1:
          test::make_file_at(at, name, random_name(rng, 64));
          break;
        case 2:
        case 3:
          folders.push_back(test::make_folder_at(at, name));
          break;
        case 4:
          mkfifoat(at, name.c_str(), 0600);
          break;
        case 5:
          test::make_node_at(at, name, S_IFSOCK);
          break;
        case 6: {
          const size_t which = roll(rng, targets.size() + 1);
          symlinkat(which < targets.size() ? targets[which].c_str() : name.c_str(), at,
                    name.c_str());
          break;
        }
        case 7:
          linkat(AT_FDCWD, (outside / "keep.txt").c_str(), at, name.c_str(), 0);
          break;
        default: {  // a chain, up to a hundred deep
          test::FolderFd chain = test::make_folder_at(at, name);
          for (size_t depth = roll(rng, 100); depth > 0; --depth)
            chain = test::make_folder_at(chain.get(), "c");
          test::make_file_at(chain.get(), "end", "");
        }
      }
    } catch (const std::runtime_error&) {
    }
  }
  // Some folders closed, wholly or in part, as a run under the grader's user can.
  constexpr mode_t kModes[] = {0, 0100, 0200, 0300, 0400, 0500, 0600, 01000};
  for (const test::FolderFd& folder : folders)
    if (roll(rng, 3) == 0) fchmod(folder.get(), kModes[roll(rng, std::size(kModes))]);
}

// How many of `count` random trees were not removed wholly, cleanly and alone (the first is
// told on stderr).
int random_tree_failures(const fs::path& dir, unsigned seed, int count) {
  std::mt19937 rng(seed);
  const fs::path outside = dir / "outside";
  test::write_file(outside / "keep.txt", "the grader's file");
  test::write_file(outside / "sub" / "deep.txt", "and another");
  const std::string outside_before = test::fingerprint(outside);
  int failures = 0;
  for (int t = 0; t < count; ++t) {
    const fs::path top = dir / ("tree-" + std::to_string(t));
    make_random_tree(rng, top, outside);
    const size_t descriptors = open_descriptors();
    const std::string left = gpulab::remove_tree(top);
    const bool clean = left.empty() && !test::entry_exists(top) &&
                       test::fingerprint(outside) == outside_before &&
                       open_descriptors() == descriptors;
    if (!clean && failures++ == 0)
      fprintf(stderr, "random tree %d of seed %u: %s\n", t, seed, left.c_str());
  }
  return failures;
}

// A random JSON value, with levels to `depth` and now and then deeper than any limit.
json random_value(std::mt19937& rng, int depth) {
  switch (depth > 0 ? roll(rng, 9) : roll(rng, 6)) {
    case 0:
      return nullptr;
    case 1:
      return roll(rng, 2) == 0;
    case 2:
      return static_cast<long long>(rng()) - (1LL << 31);
    case 3:
      return std::ldexp(static_cast<double>(rng()), static_cast<int>(roll(rng, 200)) - 100);
    case 4:
      return "text \xc3\xa9 " + std::to_string(rng());  // valid UTF-8
    case 5:
      return rng();
    case 6:
    case 7: {
      json array = json::array();
      for (size_t n = roll(rng, 4); n > 0; --n) array.push_back(random_value(rng, depth - 1));
      return array;
    }
    default: {
      json object = json::object();
      for (size_t n = roll(rng, 4); n > 0; --n)
        object["k" + std::to_string(roll(rng, 6))] = random_value(rng, depth - 1);
      return object;
    }
  }
}

// A document the reader is given, and what the reader must make of it.
struct Document {
  std::string text;
  // A large one, which the reference parser is not asked about (depth_of would overflow the
  // stack on its deep values): its length where it is a JSON array within the limits, else 0.
  bool large = false;
  size_t array_length = 0;
};

// A random document: JSON of random depth, then now and then cut short, corrupted by a random
// byte (an invalid UTF-8 one, a NUL), wrapped past the depth limit; or, now and then, one of
// the large hostile shapes.
Document random_document(std::mt19937& rng, int index) {
  if (index % 50 == 49) {  // large: up to 2 MiB, deep or wide
    const size_t n = 1000 + roll(rng, size_t{2} << 20) / 3;
    switch (roll(rng, 4)) {
      case 0:
        return {std::string(n, '['), true};
      case 1: {
        std::string s;
        for (size_t i = 0; i < n / 5; ++i) s += "{\"a\":";
        return {s + "1" + std::string(n / 5, '}'), true};
      }
      case 2: {
        std::string s = "[";
        for (size_t i = 0; i < n; ++i) s += "{},";
        return {s + "{}]", true, n + 1};
      }
      default:  // a number past a double's range
        return {"[" + std::string(n, '1') + "]", true};
    }
  }
  std::string text = random_value(rng, static_cast<int>(roll(rng, 40))).dump();
  switch (roll(rng, 8)) {
    case 0:
      text.resize(roll(rng, text.size() + 1));
      break;
    case 1:
      text[roll(rng, text.size())] = static_cast<char>(roll(rng, 256));
      break;
    case 2:
      text.insert(roll(rng, text.size() + 1), 1, static_cast<char>(0x80 + roll(rng, 128)));
      break;
    case 3:
      text = std::string(gpulab::kRunJsonDepthLimit, '[') + text +
             std::string(gpulab::kRunJsonDepthLimit, ']');
      break;
    default:
      break;
  }
  return {text};
}

// Levels of arrays and objects in `v`.
int depth_of(const json& v) {
  int deepest = 0;
  if (v.is_structured())
    for (const auto& e : v) deepest = std::max(deepest, depth_of(e));
  return v.is_structured() ? deepest + 1 : 0;
}

// The most a document may be here.
constexpr size_t kDocumentLimit = size_t{1} << 20;

// Whether the reader made of `d` what it must: nlohmann's value where `d` is JSON within the
// limits, else a problem and no value; and every accessor on it a value or a problem, never
// both.
bool read_right(const Document& d, const gpulab::RunJson& r) {
  bool readable = false;
  if (d.large) {
    readable = d.array_length > 0 && d.text.size() <= kDocumentLimit;
  } else if (d.text.size() <= kDocumentLimit && d.text.find('\0') == std::string::npos) {
    const json reference = json::parse(d.text, nullptr, false);
    readable = !reference.is_discarded() && depth_of(reference) <= gpulab::kRunJsonDepthLimit;
    if (readable && r.value != reference) return false;
  }
  bool right = readable ? r.problem.empty() && (!d.large || r.value.size() == d.array_length)
                        : !r.problem.empty() && r.value.is_null();
  for (const std::string key : {"k0", "k1", "k2"}) {
    const auto s = gpulab::string_field(r.value, key);
    const auto i = gpulab::int_field(r.value, key);
    const auto o = gpulab::object_field(r.value, key);
    right = right && !(s.value && !s.problem.empty()) && !(i.value && !i.problem.empty()) &&
            !(o.value && !o.problem.empty());
  }
  return right;
}

// How many of `count` random documents were read wrong (the first is told on stderr); with
// `reference` false they are only read, for the measure of the reader's memory alone.
int random_document_failures(unsigned seed, int count, bool reference) {
  std::mt19937 rng(seed);
  int failures = 0;
  for (int d = 0; d < count; ++d) {
    const Document doc = random_document(rng, d);
    const gpulab::RunJson r = gpulab::parse_run_json(doc.text, kDocumentLimit, "a document");
    if (reference && !read_right(doc, r) && failures++ == 0)
      fprintf(stderr, "random document %d of seed %u: %s\n", d, seed, r.problem.c_str());
  }
  return failures;
}

}  // namespace

TEST_CASE("random hostile trees: each is removed wholly, alone, with no descriptor left open") {
  test::TempDir tmp(test::memory_temp_dir());
  // Run by the folders' owner without privileges, where the test is root, so that the closed
  // folders are closed to it.
  const int failures = test::as_unprivileged(
      tmp.path(), [&] { return std::min(random_tree_failures(tmp.path(), kSeed, kTrees), 100); });
  CHECK(failures == 0);
  CHECK_FALSE(test::entry_exists(tmp / "tree-0"));
}

TEST_CASE("random hostile documents: a value or a problem, never a throw, within the bound") {
  CHECK(random_document_failures(kSeed, kDocuments, true) == 0);
  const long long peak = test::peak_growth_bytes(
      [] { random_document_failures(kSeed, kDocuments, false); }, 1LL << 30);
  MESSAGE("random documents: peak grew by " << peak / 1024 << " KiB");
  CHECK(peak >= 0);
  CHECK(peak < (128LL << 20));
}
