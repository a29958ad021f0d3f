// The plain driver of a fuzz target (built with any compiler, in the normal build): the seed
// inputs given on the command line (files, or folders of them), then a fixed number of
// mutations of them drawn from a fixed seed, so every run, in CI too, replays the same inputs.
// libFuzzer's own runs (scripts/fuzz.sh) explore far more; this keeps what they found checked.
//
//   fuzz_<target>_replay [--mutations N] SEED...
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

// One of a few edits libFuzzer also makes: flip a bit, set a byte to an interesting value,
// insert or erase a run, repeat a piece, splice in part of another seed.
std::string mutate(std::string s, const std::vector<std::string>& seeds, std::mt19937_64& rng) {
  const auto pick = [&](size_t n) { return n == 0 ? size_t{0} : size_t(rng() % n); };
  static const unsigned char kInteresting[] = {0x00, 0x01, 0x1b, 0x7f, 0x80, 0xbf, 0xc0, 0xe2,
                                               0xf0, 0xf4, 0xff, '"',  '\\', ',',  '(',  ')',
                                               '{',  '}',  '[',  ']',  ':',  '9'};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 6) {
      case 0:
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:
        if (!s.empty())
          s[pick(s.size())] = static_cast<char>(kInteresting[pick(sizeof kInteresting)]);
        break;
      case 2:
        s.insert(pick(s.size() + 1), std::string(1 + pick(8), static_cast<char>(rng())));
        break;
      case 3:
        if (!s.empty()) {
          const size_t at = pick(s.size());
          s.erase(at, 1 + pick(std::min<size_t>(16, s.size() - at)));
        }
        break;
      case 4:
        if (!s.empty()) {
          const size_t at = pick(s.size());
          const std::string piece = s.substr(at, 1 + pick(32));
          s.insert(pick(s.size() + 1), piece);
        }
        break;
      default: {
        const std::string& other = seeds[pick(seeds.size())];
        if (!other.empty()) {
          const size_t at = pick(other.size());
          s.insert(pick(s.size() + 1), other.substr(at, 1 + pick(64)));
        }
      }
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  long mutations = 2000;
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mutations") == 0 && i + 1 < argc) {
      mutations = std::atol(argv[++i]);
      continue;
    }
    const fs::path p = argv[i];
    if (fs::is_directory(p)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());  // the same order on every machine
      for (const auto& f : files) seeds.push_back(read_file(f));
    } else if (fs::is_regular_file(p)) {
      seeds.push_back(read_file(p));
    } else {
      std::cerr << argv[0] << ": no seed file or folder " << p << "\n";
      return 2;
    }
  }
  if (seeds.empty()) {
    std::cerr << argv[0] << ": no seeds given\n";
    return 2;
  }
  for (const auto& s : seeds) run(s);
  run("");
  std::mt19937_64 rng(20240917);
  for (long i = 0; i < mutations; ++i) {
    std::string input = seeds[rng() % seeds.size()];
    // One to ten rounds of edits away from a seed.
    for (int depth = 0; depth < 1 + static_cast<int>(rng() % 10); ++depth)
      input = mutate(std::move(input), seeds, rng);
    run(input);
  }
  std::cout << seeds.size() << " seeds and " << mutations << " mutations: no finding\n";
  return 0;
}
