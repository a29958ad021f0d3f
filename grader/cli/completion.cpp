#include "cli/completion.h"

#include <set>

#include "lab/lab_config.h"
#include "text/text_edits.h"

namespace gpulab {

namespace {

// The choices a CLI::IsMember check allows, read back from its description ("{cuda,sim}").
std::vector<std::string> member_choices(CLI::Option* opt) {
  std::vector<std::string> out;
  std::string d;
  try {
    d = opt->get_validator()->get_description();
  } catch (const CLI::OptionNotFound&) {
    return out;
  }
  if (d.size() < 2 || d.front() != '{' || d.back() != '}') return out;
  d = d.substr(1, d.size() - 2);
  for (size_t start = 0; start <= d.size();) {
    const size_t comma = std::min(d.find(',', start), d.size());
    if (comma > start) out.push_back(d.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// The labs of the tree, and of one of them its parts and the datasets a student can name (those
// of groups that are not hidden).
struct Labs {
  std::vector<LabConfig> all;
  explicit Labs(const std::filesystem::path& source) {
    for (const auto& file : find_lab_files(source)) try {
        all.push_back(LabConfig::load(file));
      } catch (const std::exception&) {  // a broken lab.json completes nothing
      }
  }
  const LabConfig* find(const std::string& id) const {
    for (const auto& l : all)
      if (l.id == id) return &l;
    return nullptr;
  }
};

std::vector<std::string> values_of(const std::string& option, const Labs& labs,
                                   const std::string& lab_id) {
  std::vector<std::string> out;
  if (option == "--labs" || option == "--lab") {  // grade-all's; dist's and cache's
    for (const auto& l : labs.all) out.push_back(l.id);
    return out;
  }
  const LabConfig* lab = labs.find(lab_id);
  if (!lab) return out;
  if (option == "--part")
    for (const auto& p : lab->parts) out.push_back(p.name);
  if (option == "--dataset" || option == "--group")
    for (const auto& g : lab->groups) {
      if (g.hidden) continue;
      if (option == "--group") out.push_back(g.name);
      if (option == "--dataset")
        for (const auto& ds : g.datasets) out.push_back(ds.name);
    }
  return out;
}

CLI::Option* option_named(CLI::App* app, const std::string& word) {
  for (CLI::Option* o : app->get_options()) {
    if (o->get_positional()) continue;
    for (const auto& n : o->get_lnames())
      if (word == "--" + n) return o;
    for (const auto& n : o->get_snames())
      if (word == "-" + n) return o;
  }
  return nullptr;
}

// A flag (--no-time) takes no value, though CLI11 gives it a type size of one (it would read
// --no-time=false): it expects no items.
bool takes_value(const CLI::Option* o) {
  return o->get_items_expected_min() > 0;
}

}  // namespace

std::string completion_script(const std::string& shell) {
  if (shell == "bash")
    return R"(# bash completion for gpulab: `source <(gpulab completion bash)`, or save it as
# ~/.local/share/bash-completion/completions/gpulab (or /usr/share/bash-completion/completions/).
# The candidates come from the gpulab being completed: gpulab __complete WORD...
_gpulab() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local IFS=$'\n'
  COMPREPLY=($(command "${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  # Nothing from gpulab (a folder or a file is asked for): the file names.
  [ ${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- "$cur"))
  return 0
}
complete -o filenames -F _gpulab gpulab
)";
  if (shell == "zsh")
    // zsh keeps "--part=x" one word, where bash splits it at '=' (complete_words reads it split):
    // split here, and the part up to '=' is not the candidates' (compset -P).
    return R"(#compdef gpulab
# zsh completion for gpulab: `source <(gpulab completion zsh)` in ~/.zshrc after compinit, or
# save it as _gpulab in a folder of $fpath. The candidates come from the gpulab being completed:
# gpulab __complete WORD...
_gpulab() {
  local cur=${words[CURRENT]}
  local -a asked candidates
  asked=("${(@)words[2,CURRENT-1]}")
  if [[ $cur == --*=* ]]; then
    asked+=("${cur%%=*}" "=" "${cur#*=}")
    compset -P '*='
  else
    asked+=("$cur")
  fi
  candidates=("${(@f)$(command ${words[1]} __complete "${asked[@]}" 2>/dev/null)}")
  candidates=(${candidates:#})  # no empty line
  # Nothing from gpulab (a folder or a file is asked for): the file names.
  if (( ${#candidates} )); then
    compadd -Q -- "${candidates[@]}"
  else
    _files
  fi
}
# Sourced: register it. Autoloaded from $fpath (this file's text is then _gpulab's body, run on
# the first TAB): define it as above, and complete this time too.
if [[ $funcstack[1] == _gpulab ]]; then
  _gpulab "$@"
else
  compdef _gpulab gpulab
fi
)";
  throw std::runtime_error("no completion for the shell \"" + shell + "\" (bash or zsh)");
}

void complete_words(CLI::App& app, std::vector<std::string> words,
                    const std::filesystem::path& source, std::ostream& out) {
  if (words.empty()) words.push_back("");
  std::string cur = words.back();
  words.pop_back();
  // "--part=x": the value of --part being typed after the '='.
  std::string value_of;
  if (!words.empty() && words.back() == "=" && words.size() >= 2) {
    value_of = words[words.size() - 2];
    words.resize(words.size() - 2);
  } else if (cur == "=" && !words.empty()) {
    value_of = words.back();
    words.pop_back();
    cur.clear();
  }

  CLI::App* at = &app;
  CLI::Option* awaiting = nullptr;  // the option whose value comes next
  size_t positional = 0;
  std::string lab_id;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "=") continue;
    if (awaiting) {
      awaiting = nullptr;
      continue;
    }
    if (starts_with(w, "-")) {
      CLI::Option* o = option_named(at, w);
      // "--out=x" carries its value; "--out" x has it next.
      if (o && takes_value(o) && !(i + 1 < words.size() && words[i + 1] == "=")) awaiting = o;
      if (o && takes_value(o) && i + 1 < words.size() && words[i + 1] == "=") ++i;
      continue;
    }
    CLI::App* sub = nullptr;
    try {
      sub = at->get_subcommand(w);
    } catch (const CLI::OptionNotFound&) {
    }
    if (sub) {
      at = sub;
      positional = 0;
      continue;
    }
    const auto pos = at->get_options([](const CLI::Option* o) { return o->get_positional(); });
    if (positional < pos.size() && pos[positional]->get_name() == "lab") lab_id = w;
    ++positional;
  }
  if (awaiting) value_of = awaiting->get_lnames().empty() ? "" : "--" + awaiting->get_lnames()[0];

  Labs labs(source);
  std::vector<std::string> candidates;
  if (!value_of.empty()) {
    CLI::Option* o = option_named(at, value_of);
    if (o) candidates = member_choices(o);
    if (candidates.empty()) candidates = values_of(value_of, labs, lab_id);
  } else if (starts_with(cur, "-")) {
    for (CLI::Option* o : at->get_options()) {
      if (o->get_positional() || o->get_group().empty()) continue;  // hidden ones too
      for (const auto& n : o->get_lnames()) candidates.push_back("--" + n);
      for (const auto& n : o->get_snames()) candidates.push_back("-" + n);
    }
  } else {
    for (const CLI::App* sub :
         at->get_subcommands([](const CLI::App* a) { return !a->get_group().empty(); }))
      candidates.push_back(sub->get_name());
    const auto pos = at->get_options([](const CLI::Option* o) { return o->get_positional(); });
    if (candidates.empty() && positional < pos.size()) {
      if (pos[positional]->get_name() == "lab")
        for (const auto& l : labs.all) candidates.push_back(l.id);
      else
        candidates = member_choices(pos[positional]);
    }
  }
  std::set<std::string> said;
  for (const auto& c : candidates)
    if (starts_with(c, cur) && said.insert(c).second) out << c << "\n";
}

}  // namespace gpulab
