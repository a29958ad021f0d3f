#!/usr/bin/env python3
"""gpulab's include layering: every #include "..." of the C++/CUDA sources must reach a file of
its own layer or of a layer below that the table allows, never one above.

    scripts/check_layers.py [ROOT]        check the tree at ROOT (default: this checkout)
    scripts/check_layers.py --self-test   check this tree, then plant bad includes in a copy of it
                                          and check that each is caught
    scripts/check_layers.py --table       print the layers

The ctests `layers` and `layers_self_test` run the first two (tests/CMakeLists.txt). An include
is resolved as the compiler does: beside the including file first, then in the include folders
the build gives (INCLUDE_ROOTS); a name found in two of those folders is an error too, since
which one a file gets would depend on its target's order of -I flags.
"""
import os
import re
import shutil
import sys
import tempfile

# grader/ is a house of rooms, one folder per role, lowest first (what each holds).
GRADER_ROOMS = [
    ("text", "words and tables for people: safe quoting, numbers, names, CSV, HTML, Markdown"),
    ("files", "files and folders: temporaries, atomic writes, locks, hashes, secrets, archives, paths"),
    ("os", "processes, signals, descriptors, seccomp, exit statuses, time budgets"),
    ("plot", "drawing: the canvas, colour maps, bar and line charts, PNG, error maps"),
    ("lab", "what lab.json says: the lab's configuration, its parts, timing and library policy"),
    ("core", "the report's model and the rules that score it: scope, scoring, rubric, findings"),
    ("data", "datasets and outputs: the dataset cache, samples, sealed outputs, the check"),
    ("sandbox", "what a run sees: bubblewrap, the libraries it may load, the runner's recipe"),
    ("build", "building a submission's runner, and what its code may use (symbols, libraries)"),
    ("run", "running a runner: the client, its channel, its outputs, the outside clock"),
    ("report", "report formats: JSON, Gradescope, PrairieLearn, GitHub Classroom"),
    ("grade", "one grading: intake, correctness, timed tests, compute-sanitizer, the write-up"),
    ("class", "a class at once: grade-all, SLURM, class tables, findings, gradebooks, rosters"),
    ("package", "what gpulab hands out: the student kit, Gradescope and PrairieLearn packages"),
    ("bench", "benchmarks: gpulab bench, its sweeps, and bench-grader"),
    ("figures", "the handouts' figures, drawn from real runs"),
    ("cli", "the gpulab command: one dispatcher and the commands' own code"),
]

# What the figures' code may use of the grader: its rooms up to the one that draws them.
FIGURE_ROOMS = ["grader/" + r for r, _ in GRADER_ROOMS[:[r for r, _ in GRADER_ROOMS].index("figures") + 1]]

# Lowest first; a file belongs to the first layer whose pattern (a regular expression) matches
# the start of its path. "may include" names the layers below it that it may reach.
# Scoped layers keep one lab's (or one family's) files apart from another's: a file of lab A
# reaches no file of lab B, in whichever layer.
LAYERS = [
    # name, pattern, may include, scope ("lab", "family" or None)
    ("harness", r"harness/", [], None),
    ("sim", r"sim/", ["harness"], None),
    ("datasets-common", r"datasets/[^/]+$", ["harness"], None),
    ("family-generators", r"families/[^/]+/generator[^/]*$", ["harness", "datasets-common"],
     "family"),
    ("families", r"families/[^/]+/(?!figures/)", ["harness"], "family"),
    ("labs", r"labs/[^/]+/", ["harness", "families"], "lab"),
    ("reference", r"reference/[^/]+/", ["labs"], "lab"),
    ("lab-datasets", r"datasets/[^/]+/", ["harness", "datasets-common", "family-generators"],
     "lab"),
] + [
    # grader/'s rooms (each folder's README.md says what it holds), lowest first: each may
    # include the rooms before it and what the grader builds on, never a room after it.
    ("grader/" + room, r"grader/" + room + "/",
     ["harness", "datasets-common", "sim"] + ["grader/" + r for r, _ in GRADER_ROOMS[:i]], None)
    for i, (room, _) in enumerate(GRADER_ROOMS)
] + [
    # The handouts' figures, above the grader room that draws them: what a family's labs share
    # (families/<family>/figures/), then each lab's own (handouts/figures/<lab>/), which register
    # with GPULAB_FIGURES (grader/figures/figures.h) so that no room names a lab.
    ("family-figures", r"families/[^/]+/figures/",
     ["harness", "datasets-common"] + FIGURE_ROOMS, "family"),
    ("lab-figures", r"handouts/figures/[^/]+/",
     ["harness", "datasets-common", "family-figures"] + FIGURE_ROOMS,
     "lab"),
    ("tests", r"tests/", ["*"], None),
]

WHAT = {
    "harness": "what a runner is built on: datasets, .npy, comparison, timing, the runner's main",
    "sim": "the CPU backend: rewriter, runtime (with its CUDA stand-in headers), sim-cc",
    "datasets-common": "datasets/*.h, *.cpp: the generators' registry, rng, threads, clearances",
    "family-generators": "families/<family>/generator*: a family's dataset generator and oracle",
    "families": "families/<family>/: what a family's lab drivers share (dataset readers)",
    "labs": "labs/<lab>/: interface header, stub, driver",
    "reference": "reference/<lab>/: the solution, and driver code kept from students "
                 "(lab.json's reference_driver_files, e.g. coarsening's plain gather)",
    "lab-datasets": "datasets/<lab>/: the lab's generator, registered under its id",
    "family-figures": "families/<family>/figures/: drawing code a family's labs' figures share",
    "lab-figures": "handouts/figures/<lab>/: the lab's figures, registered under its id",
    **{"grader/" + room: what for room, what in GRADER_ROOMS},
    "tests": "tests/: may include anything",
}

# The include folders the build gives (CMake's target_include_directories), besides the
# including file's own folder. reference/<lab>/ also sees labs/<lab>/ (added per file).
INCLUDE_ROOTS = [
    "harness",
    "datasets",
    "families",
    "grader",
    "handouts/figures",
    "sim/runtime/include",
    "sim/runtime",
    "sim/rewriter",
    "sim/cc",
    "tests/support",
    "tests/calibration",
    "tests/e2e",
    "tests/unit",
]

SOURCE = re.compile(r"\.(h|hpp|cuh|c|cc|cpp|cu|def|inc)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(path):
    for name, pattern, _, scope in LAYERS:
        if re.match(pattern, path):
            return name, scope
    return None, None


def scope_key(path):
    """The lab or family a scoped file belongs to: its second path component (its third under
    handouts/figures/)."""
    parts = path.split("/")
    if path.startswith("handouts/figures/"):
        parts = parts[1:]
    return parts[1] if len(parts) > 2 else None


def sources(root):
    out = []
    for top, dirs, files in os.walk(root):
        rel = os.path.relpath(top, root)
        if rel == ".":
            dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        for f in files:
            if SOURCE.search(f):
                out.append(os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/"))
    return sorted(out)


def resolve(root, includer, name):
    """(path, error): the file an include reaches, relative to root, or why there is none."""
    here = os.path.normpath(os.path.join(os.path.dirname(includer), name)).replace(os.sep, "/")
    if not here.startswith("../") and os.path.isfile(os.path.join(root, here)):
        return here, None
    roots = list(INCLUDE_ROOTS)
    if includer.startswith("reference/") and scope_key(includer):
        roots.insert(0, "labs/" + scope_key(includer))
    found = []
    for r in roots:
        p = os.path.normpath(os.path.join(r, name)).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, p)) and p not in found:
            found.append(p)
    if len(found) > 1:
        return None, "is ambiguous: " + " and ".join(found) + " (rename one)"
    if not found:
        return None, "reaches no file of the tree (a new include folder? add it to INCLUDE_ROOTS)"
    return found[0], None


def check(root):
    problems = []
    for room, _ in GRADER_ROOMS:  # each room says what it holds
        if not os.path.isfile(os.path.join(root, "grader", room, "README.md")):
            problems.append(f"grader/{room}/: no README.md saying what the room holds")
    for path in sources(root):
        layer, scope = layer_of(path)
        if layer is None:
            problems.append(f"{path}: in no layer (add its folder to LAYERS in check_layers.py)")
            continue
        allowed = next(l[2] for l in LAYERS if l[0] == layer)
        with open(os.path.join(root, path), errors="replace") as f:
            lines = f.readlines()
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target, error = resolve(root, path, m.group(1))
            where = f'{path}:{n}: #include "{m.group(1)}"'
            if error:
                # Tests build files in place of others (adversarial submissions), so what
                # they include need not exist in the tree.
                if layer != "tests":
                    problems.append(f"{where} {error}")
                continue
            t_layer, t_scope = layer_of(target)
            if t_layer != layer and "*" not in allowed and t_layer not in allowed:
                problems.append(
                    f"{where} reaches {target} (layer {t_layer}): layer {layer} may include "
                    f"only {', '.join(allowed) or 'its own files'}")
            elif scope and scope == t_scope and scope_key(path) != scope_key(target):
                problems.append(
                    f"{where} reaches {target}: one {scope}'s files may not include another's "
                    f"(code two {scope}s share goes to families/<family>/)")
    return problems


def print_table():
    rooms = ["grader/" + r for r, _ in GRADER_ROOMS]
    for name, _, allowed, scope in LAYERS:
        if name in rooms and rooms.index(name) > 0:  # every room before it: said in one line
            allowed = [a for a in allowed if a not in rooms] + ["the rooms listed before it"]
        print(f"{name:18s} may include {', '.join(allowed) or '-':45s} {WHAT[name]}"
              + (f" (one {scope} apart from another)" if scope else ""))


# Each planted file, its include, and a word the check's complaint must contain.
PLANTED = [
    ("labs/coarsening/planted.cpp", "../scatter-gather/dcs.h", "another's"),
    ("labs/scan/planted.cpp", "dcs/generator.h", "layer labs may include"),
    ("labs/scan/planted2.cpp", "registry.h", "layer labs may include"),
    ("datasets/scan/planted.cpp", "data/dataset_store.h", "layer lab-datasets may include"),
    ("datasets/scan/planted2.cpp", "../binning/generator.cpp", "another's"),
    ("harness/planted.cpp", "registry.h", "layer harness may include"),
    ("datasets/planted.h", "data/dataset_store.h", "layer datasets-common may include"),
    ("families/dcs/planted.h", "files/paths.h", "layer families may include"),
    ("sim/runtime/planted.cpp", "registry.h", "layer sim may include"),
    ("grader/grade/planted.cpp", "dcs/input.h", "layer grader/grade may include"),
    # A room reaches only the rooms below it: the report's model knows nothing of a grading.
    ("grader/core/planted.cpp", "grade/grade.h", "layer grader/core may include"),
    ("grader/text/planted.cpp", "cli/completion.h", "layer grader/text may include"),
    # A file straight in grader/ is in no room.
    ("grader/planted.cpp", "text/safe_text.h", "in no layer"),
    ("reference/scan/planted.cu", "../coarsening/coarsening.cu", "another's"),
    # The kit has no reference/: a lab's driver that included instructor-only code would not
    # build there (coarsening's driver declares its baseline, defined in reference/coarsening/).
    ("labs/coarsening/planted3.cpp", "../../reference/coarsening/driver_baseline.cu",
     "layer labs may include"),
    # One lab's figures reach no other lab's; shared drawing goes to the family's folder, which
    # reaches no lab's figures.
    ("handouts/figures/scan/planted.cpp", "histogram/find_starts_trace.h", "another's"),
    ("families/scan/figures/planted.cpp", "binning/neighbour_offsets.h",
     "layer family-figures may include"),
    # The grader's rooms reach no lab's figures (they find them by id).
    ("grader/figures/planted.cpp", "histogram/find_starts_trace.h",
     "layer grader/figures may include"),
    ("newfolder/planted.cpp", "npy.h", "in no layer"),
    ("harness/planted3.cpp", "no_such_header.h", "reaches no file"),
]


def self_test(root):
    ok = True
    problems = check(root)
    if problems:
        print("self-test: the tree itself breaks the layering:\n  " + "\n  ".join(problems))
        ok = False
    with tempfile.TemporaryDirectory() as tmp:
        readmes = [f"grader/{room}/README.md" for room, _ in GRADER_ROOMS]
        for path in sources(root) + [r for r in readmes if os.path.isfile(os.path.join(root, r))]:
            os.makedirs(os.path.join(tmp, os.path.dirname(path)), exist_ok=True)
            shutil.copyfile(os.path.join(root, path), os.path.join(tmp, path))
        if check(tmp) != problems:
            print("self-test: the copy of the tree checks differently from the tree")
            ok = False
        # A room without its README.md.
        os.rename(os.path.join(tmp, readmes[0]), os.path.join(tmp, readmes[0] + ".away"))
        if any(p.startswith("grader/text/: no README.md") for p in check(tmp)):
            print("self-test: caught  grader/text/: no README.md")
        else:
            print("self-test: MISSED  a room without its README.md")
            ok = False
        os.rename(os.path.join(tmp, readmes[0] + ".away"), os.path.join(tmp, readmes[0]))
        for path, include, word in PLANTED:
            planted = os.path.join(tmp, path)
            os.makedirs(os.path.dirname(planted), exist_ok=True)
            with open(planted, "w") as f:
                f.write(f'// planted by check_layers.py --self-test\n#include "{include}"\n')
            found = [p for p in check(tmp) if p.startswith(path + ":") and word in p]
            os.remove(planted)
            if found:
                print(f"self-test: caught  {found[0]}")
            else:
                print(f'self-test: MISSED  {path}: #include "{include}" (expected "{word}")')
                ok = False
    return ok


def main(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[1:2] == ["--table"]:
        print_table()
        return 0
    if argv[1:2] == ["--self-test"]:
        return 0 if self_test(here) else 1
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else here
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) against the layering (scripts/check_layers.py --table)")
        return 1
    print(f"layering: {len(sources(root))} source files, every include within its layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
