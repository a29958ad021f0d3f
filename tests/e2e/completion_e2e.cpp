// Shell completion (grader/cli/completion.h): the script `gpulab completion bash` prints sources in
// bash, and its completion function, asking `gpulab __complete`, offers the subcommands, a
// subcommand's options, the lab ids, a lab's parts and the choices of a checked option; zsh's
// does the same in zsh's words.
#include <doctest/doctest.h>

#include <fstream>

#include "e2e_util.h"

namespace {

using namespace e2e;

// The command line gpulab completes, as a shell array's words: gpulab, then `words`.
std::string command_words(const std::vector<std::string>& words) {
  std::string line = GPULAB_TEST_BINARY;
  for (const auto& w : words) line += " '" + w + "'";
  return line;
}

// What `shell -c script` prints, run beside the completion script; a line break before it, so
// that every candidate is a line between two line breaks (offers below).
std::string shell_output(std::vector<std::string> argv, const fs::path& script) {
  const gpulab::ProcessResult p =
      gpulab::run_process({std::move(argv), script.parent_path(), 60, 1 << 20, 0, 0, {}});
  REQUIRE_MESSAGE(p.exit_code == 0, p.output);
  return "\n" + p.output;
}

// `gpulab completion <shell>`, saved in a scratch folder as `name`.
fs::path completion_script(const std::string& shell, const std::string& name) {
  const fs::path dir = scratch("completion-" + shell);
  const gpulab::ProcessResult s =
      gpulab::run_process({{GPULAB_TEST_BINARY, "completion", shell}, dir, 60, 1 << 20, 0, 0, {}});
  REQUIRE(s.exit_code == 0);
  std::ofstream(dir / name) << s.output;
  return dir / name;
}

// COMPREPLY of the sourced script for `words` (after "gpulab", the last one being completed),
// one per line.
std::string completed(const fs::path& script, const std::vector<std::string>& words) {
  return shell_output({"bash", "--norc", "-c",
                       "set -e; source '" + script.string() + "'; COMP_WORDS=(" +
                           command_words(words) + "); COMP_CWORD=" + std::to_string(words.size()) +
                           "; _gpulab; printf '%s\\n' \"${COMPREPLY[@]}\""},
                      script);
}

// What zsh's completion function adds for `words` (after "gpulab", the last one being
// completed), one per line. compadd, compset, _files and compdef, which work only inside zsh's
// completion system, are stood in for by functions that print what they are given: "<files>"
// for _files, "<compset PATTERN>" for compset -P.
std::string zsh_completed(const fs::path& script, const std::vector<std::string>& words) {
  return shell_output(
      {"zsh", "-f", "-c",
       "compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; "
       "print -rl -- \"$@\"; }; "
       "_files() { print -r -- '<files>'; }; "
       "compset() { print -r -- \"<compset $2>\"; }; compdef() { :; }; "
       "source '" +
           script.string() + "'; words=(" + command_words(words) + "); CURRENT=$#words; _gpulab"},
      script);
}

bool offers(const std::string& reply, const std::string& word) {
  return reply.find("\n" + word + "\n") != std::string::npos;
}

}  // namespace

TEST_SUITE("cpu") {
  TEST_CASE("bash completion completes subcommands, options, labs, parts and choices") {
    const fs::path script = completion_script("bash", "gpulab.bash");

    const std::string subcommands = completed(script, {""});
    CHECK(offers(subcommands, "run"));
    CHECK(offers(subcommands, "grade"));
    CHECK_FALSE(offers(subcommands, "__complete"));
    const std::string r = completed(script, {"r"});
    CHECK(offers(r, "run"));
    CHECK_FALSE(offers(r, "grade"));

    const std::string options = completed(script, {"run", "scan", "--"});
    CHECK(offers(options, "--part"));
    CHECK(offers(options, "--dataset"));
    CHECK_FALSE(offers(options, "--hidden-seed"));  // grade's, not run's
    CHECK_FALSE(offers(completed(script, {"grade", "scan", "--"}), "--grade-all-parent"));

    const std::string labs = completed(script, {"run", ""});
    for (const char* lab : {"scan", "scatter-gather", "coarsening"}) CHECK(offers(labs, lab));
    // An option that takes lab ids, after a flag, which takes no value: dist's --lab.
    CHECK(offers(completed(script, {"dist", "--github-classroom", "--lab", "sc"}), "scan"));
    CHECK(
        offers(completed(script, {"run", "scatter-gather", "--no-time", "--part", ""}), "gather"));
    const std::string parts = completed(script, {"run", "scatter-gather", "--part", ""});
    for (const char* part : {"scatter", "gather", "cpu_fast"}) CHECK(offers(parts, part));
    CHECK_FALSE(offers(parts, "exclusive"));
    // --part=ga: bash splits at the '='.
    const std::string joined = completed(script, {"run", "scatter-gather", "--part", "=", "ga"});
    CHECK(offers(joined, "gather"));
    CHECK_FALSE(offers(joined, "scatter"));
    CHECK(offers(completed(script, {"run", "scatter-gather", "--dataset", "ti"}), "tiny"));
    const std::string backends = completed(script, {"run", "scan", "--backend", ""});
    CHECK(offers(backends, "sim"));
    CHECK(offers(backends, "cuda"));
  }

  TEST_CASE("zsh completion: the same candidates, --part=x split for gpulab, files otherwise") {
    const fs::path script = completion_script("zsh", "_gpulab");
    std::ifstream saved(script);
    std::string first_line;
    std::getline(saved, first_line);
    CHECK(first_line == "#compdef gpulab");  // for $fpath

    const std::string subcommands = zsh_completed(script, {"gr"});
    CHECK(offers(subcommands, "grade"));
    CHECK(offers(subcommands, "grade-all"));
    CHECK_FALSE(offers(subcommands, "run"));
    const std::string parts = zsh_completed(script, {"run", "scatter-gather", "--part", ""});
    for (const char* part : {"scatter", "gather", "cpu_fast"}) CHECK(offers(parts, part));
    // One word in zsh: asked split, as bash splits it, and "--part=" left out of the candidates.
    const std::string joined = zsh_completed(script, {"run", "scatter-gather", "--part=ga"});
    CHECK(offers(joined, "<compset *=>"));
    CHECK(offers(joined, "gather"));
    CHECK_FALSE(offers(joined, "scatter"));
    CHECK_FALSE(offers(joined, "<files>"));
    const std::string backends = zsh_completed(script, {"grade", "scan", "--backend", ""});
    CHECK(offers(backends, "sim"));
    CHECK(offers(backends, "cuda"));
    // A folder or a file asked for: nothing from gpulab, and no empty candidate.
    const std::string files = zsh_completed(script, {"run", "scan", "--submission", ""});
    CHECK(files == "\n<files>\n");
  }
}
