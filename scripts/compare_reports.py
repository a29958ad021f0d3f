#!/usr/bin/env python3
"""Grades a corpus of submissions on the sim backend with two gpulab builds and compares the
reports, so that a refactor can show that it changed no score, maximum, test name, status or
message (docs/ARCHITECTURE.md, "Changing gpulab").

The corpus, read from each build's own source tree:
  reference/<lab>          every lab's reference, --no-time (as tests/e2e/labs_e2e.cpp), and
                           again timed (as the sim suite of tests/e2e/grade_e2e.cpp)
  stub/<lab>               labs/<lab>/, the stub, --no-time
  submissions/<lab>/<name> tests/submissions/, with the options of its expect.json
                           (tests/e2e/expect.h); one without an expect.json on every part, --no-time
  adversarial/<lab>/<name> tests/adversarial/, as tests/e2e/adversarial_e2e.cpp grades it: the
                           submission made from the reference, or as a folder or archive from its
                           "adversary": {"submission": ...}, a canary file beside the report, a
                           dataset cache of the run's own; an honest twin of a timed attack is also
                           graded timed (<name>@timed)
Each is graded with `gpulab grade <lab> --backend sim --hidden-seed 7` (the hidden seed of
tests/e2e/e2e_util.h) and GPULAB_SIM_THREADS=1 (so that the order of atomic adds and the counts
of racy findings repeat from run to run), never on a GPU; those whose expect.json names the
cuda backend alone too: the sim's report is what is compared, whatever expect.json says of it.
A submission that cannot be made (an edit of "from_reference" that no longer applies) is a
case whose record says why, in place of a report. A case whose submission does something else
on every run, by design or by a race of its own (RANDOM_CASES), is compared by its grades and
exit code only.

A run saves, per case, the raw report and terminal output, and the paths that normalizing needs
(raw/), and the normalized record (normalized/): exit code, report and terminal output with what
legitimately varies between runs and trees replaced (see normalize()).

    # grade with two builds and compare (each build's gpulab is <build>/gpulab)
    python3 scripts/compare_reports.py --old ../old-checkout/build --new build
    # grade once, keep the reports for later
    python3 scripts/compare_reports.py --new ../old-checkout/build --save-new /tmp/reports-old
    # compare saved reports with a build (or two saved sets: --new-reports)
    python3 scripts/compare_reports.py --old-reports /tmp/reports-old --new build
Options: -j N grades N cases at once (default 1); --only GLOB limits the cases (fnmatch on their
names, repeatable); --list prints the corpus and exits. Exit status: 0 when every case graded on
both sides has the same normalized record, 1 when one differs or disappeared, 2 on bad use.
Python 3 standard library only.
"""
import argparse
import concurrent.futures
import difflib
import fnmatch
import io
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from submission_dir import submission_dir  # noqa: E402

HIDDEN_SEED = "7"  # tests/e2e/e2e_util.h, kHiddenSeed
BACKEND = ["--backend", "sim"]
SIM_THREADS = "1"  # see grade()
GRADE_TIMEOUT_S = 900  # per case, as tests/e2e/e2e_util.h's grade()
CANARY_NAME = "instructor-secret.txt"  # tests/e2e/adversarial_e2e.cpp
CANARY_TEXT = "gpulab-canary-compare-reports\n"
ARCHIVE_MTIME = 1577836800  # tests/support/hostile_archive.cpp
# Submissions without an expect.json (scatter-gather's, graded by tests/e2e/grade_e2e.cpp) that
# need more than every part, --no-time: the spinning kernel gets grade_e2e.cpp's short timeout.
NO_EXPECT_EXTRA = {"scatter-gather/hang": ["--timeout", "5"]}


# ---------------------------------------------------------------------------------------------
# The builds


class Side:
    """A gpulab build: its binary and the source tree it was configured from."""

    def __init__(self, build):
        build = os.path.abspath(build)
        if os.path.isfile(build):
            build = os.path.dirname(build)
        self.build = build
        self.binary = os.path.join(build, "gpulab")
        if not os.access(self.binary, os.X_OK):
            sys.exit(f"compare_reports: no gpulab binary at {self.binary} (is {build} built?)")
        cache = os.path.join(build, "CMakeCache.txt")
        source = None
        if os.path.exists(cache):
            for line in open(cache):
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    source = line.split("=", 1)[1].strip()
        if not source or not os.path.isdir(os.path.join(source, "labs")):
            sys.exit(f"compare_reports: cannot find the source tree of {build} in its "
                     "CMakeCache.txt (CMAKE_HOME_DIRECTORY)")
        self.source = os.path.realpath(source)


# ---------------------------------------------------------------------------------------------
# The corpus


class Case:
    """One grading: `name` (its key in the saved reports), the lab, a function that makes the
    submission under a scratch folder, gpulab's extra options."""

    def __init__(self, name, lab, make, args):
        self.name, self.lab, self.make, self.args = name, lab, make, args


def read_spec(folder):
    path = os.path.join(folder, "expect.json")
    return json.load(open(path)) if os.path.exists(path) else None


def parts_of(spec):
    p = spec["part"]
    return p if isinstance(p, list) else [p]


def spec_args(spec, timed=False):
    """tests/e2e/expect.cpp's grade_args (adversarial_e2e.cpp's adversary_args when timed)."""
    args = list(BACKEND)
    for part in parts_of(spec):
        args += ["--part", part]
    if not timed:
        args.append("--no-time")
    if "timeout" in spec:
        args += ["--timeout", json.dumps(spec["timeout"])]
    return args


def sorted_dirs(root):
    if not os.path.isdir(root):
        return []
    return sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))


def corpus(source):
    cases = []
    labs = [lab for lab in sorted_dirs(os.path.join(source, "labs"))
            if os.path.exists(os.path.join(source, "labs", lab, "lab.json"))]
    for lab in labs:
        ref = os.path.join(source, "reference", lab)
        stub = os.path.join(source, "labs", lab)
        cases.append(Case(f"reference/{lab}", lab, lambda s, d=ref: d, BACKEND + ["--no-time"]))
        cases.append(Case(f"reference/{lab}@timed", lab, lambda s, d=ref: d, list(BACKEND)))
        cases.append(Case(f"stub/{lab}", lab, lambda s, d=stub: d, BACKEND + ["--no-time"]))
    subs = os.path.join(source, "tests", "submissions")
    for lab in sorted_dirs(subs):
        for name in sorted_dirs(os.path.join(subs, lab)):
            folder = os.path.join(subs, lab, name)
            spec = read_spec(folder)
            make = (lambda s, f=folder: submission_dir(f, s, source))
            case_name = f"submissions/{lab}/{name}"
            if spec is None:
                args = BACKEND + ["--no-time"] + NO_EXPECT_EXTRA.get(f"{lab}/{name}", [])
                cases.append(Case(case_name, lab, make, args))
            else:
                cases.append(Case(case_name, lab, make, spec_args(spec)))
    adv = os.path.join(source, "tests", "adversarial")
    timed_twins = set()
    for lab in sorted_dirs(adv):
        for name in sorted_dirs(os.path.join(adv, lab)):
            folder = os.path.join(adv, lab, name)
            spec = read_spec(folder)
            if spec is None:
                continue
            a = spec.get("adversary", {})
            case_name = f"adversarial/{lab}/{name}"
            if "submission" in a:
                make = (lambda s, f=folder, sp=spec, l=lab: made_submission(sp, f, l, s, source))
            else:
                make = (lambda s, f=folder: submission_dir(f, s, source))
            cases.append(Case(case_name, lab, make, spec_args(spec, a.get("timed", False))))
            if a.get("timed") and "twin" in a:
                timed_twins.add((lab, a["twin"]))
    for lab, twin in sorted(timed_twins):
        folder = os.path.join(adv, lab, twin)
        spec = read_spec(folder)
        if spec is None or spec.get("adversary", {}).get("timed"):
            continue
        cases.append(Case(f"adversarial/{lab}/{twin}@timed", lab,
                          lambda s, f=folder: submission_dir(f, s, source),
                          spec_args(spec, timed=True)))
    return cases


def entry_content(entry, folder, lab, source, canary):
    if "file" in entry:
        data = open(os.path.join(folder, entry["file"]), "rb").read()
    elif "reference" in entry:
        data = open(os.path.join(source, "reference", lab, entry["reference"]), "rb").read()
    else:
        data = entry.get("text", "").replace("@CANARY@", canary).encode()
    return data + b"\0" * entry.get("zeros", 0)


def made_submission(spec, folder, lab, scratch, source):
    """The folder or archive an "adversary": {"submission": ...} describes (the entries of
    tests/e2e/adversarial_e2e.cpp's make_submission), made under `scratch`."""
    s = spec["adversary"]["submission"]
    canary = os.path.join(scratch, "report", CANARY_NAME)
    entries = []
    for e in s["entries"]:
        for i in range(e.get("repeat", 1)):
            path = e["path"].replace("{}", str(i))
            entries.append((path, e))
    fmt = s["format"]
    sub = lambda t: t.replace("@CANARY@", canary)  # noqa: E731
    if fmt == "dir":
        root = os.path.join(scratch, "submission")
        os.makedirs(root)
        for path, e in entries:
            p = os.path.join(root, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            if "symlink" in e:
                os.symlink(sub(e["symlink"]), p)
            elif "hardlink" in e:
                os.link(sub(e["hardlink"]), p)
            elif e.get("fifo"):
                os.mkfifo(p, 0o644)
            elif e.get("directory"):
                os.makedirs(p, exist_ok=True)
            else:
                open(p, "wb").write(entry_content(e, folder, lab, source, canary))
        return root
    out = os.path.join(scratch, "submission." + fmt)
    if fmt == "zip":
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for path, e in entries:
                info = zipfile.ZipInfo(path, time.gmtime(ARCHIVE_MTIME)[:6])
                info.compress_type = zipfile.ZIP_DEFLATED
                if "symlink" in e:
                    info.external_attr = (stat.S_IFLNK | 0o777) << 16
                    z.writestr(info, sub(e["symlink"]))
                elif e.get("directory"):
                    info.external_attr = (stat.S_IFDIR | 0o755) << 16
                    z.writestr(info, b"")
                elif "hardlink" in e or e.get("fifo"):
                    raise ValueError(f"{path}: a zip cannot hold this entry here")
                else:
                    info.external_attr = (stat.S_IFREG | 0o644) << 16
                    z.writestr(info, entry_content(e, folder, lab, source, canary))
        return out
    if fmt != "tar.gz":
        raise ValueError(f"unknown submission format {fmt}")
    with tarfile.open(out, "w:gz", format=tarfile.PAX_FORMAT) as t:
        for path, e in entries:
            info = tarfile.TarInfo(path)
            info.mtime = ARCHIVE_MTIME
            info.mode = 0o644
            data = None
            if "symlink" in e:
                info.type, info.linkname = tarfile.SYMTYPE, sub(e["symlink"])
            elif "hardlink" in e:
                info.type, info.linkname = tarfile.LNKTYPE, sub(e["hardlink"])
            elif e.get("fifo"):
                info.type = tarfile.FIFOTYPE
            elif e.get("directory"):
                info.type, info.mode = tarfile.DIRTYPE, 0o755
            else:
                data = entry_content(e, folder, lab, source, canary)
                info.size = len(data)
            t.addfile(info, io.BytesIO(data) if data is not None else None)
    return out


# ---------------------------------------------------------------------------------------------
# Grading


def flat(name):
    return name.replace("/", "__").replace("@", "_at_")


def grade(side, case, scratch_root, cache):
    """Grades one case; returns its raw record (the paths normalize() needs included)."""
    scratch = os.path.join(scratch_root, flat(case.name))
    shutil.rmtree(scratch, ignore_errors=True)
    report_dir = os.path.join(scratch, "report")
    os.makedirs(report_dir)
    open(os.path.join(report_dir, CANARY_NAME), "w").write(CANARY_TEXT)
    paths = {"source": side.source, "build": side.build, "scratch": scratch, "cache": cache}
    try:
        submission = case.make(scratch)
    except (Exception, SystemExit) as e:  # submission_dir exits on an edit that does not apply
        shutil.rmtree(scratch, ignore_errors=True)
        return {"case": case.name, "argv": [], "exit_code": f"submission not made: {e}",
                "seconds": 0, "terminal": "", "report": None, "paths": paths}
    paths["submission"] = submission
    report = os.path.join(report_dir, "results.json")
    argv = [side.binary, "grade", case.lab, "--submission", submission, "--out", report,
            "--hidden-seed", HIDDEN_SEED] + case.args
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPULAB_")}
    env["GPULAB_CACHE_DIR"] = cache
    # One thread runs the sim's blocks (the sandbox passes GPULAB_SIM_* on to the run): with
    # more, the order of atomic float adds and the counts of racy findings vary from run to run.
    env["GPULAB_SIM_THREADS"] = SIM_THREADS
    start = time.monotonic()
    p = subprocess.Popen(argv, cwd=report_dir, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=GRADE_TIMEOUT_S)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the session this call started, gpulab's own
        out, _ = p.communicate()
        code = "timed out"
    record = {
        "case": case.name,
        "argv": argv[1:],
        "exit_code": code,
        "seconds": round(time.monotonic() - start, 1),
        "terminal": out.decode("utf-8", "replace"),
        "report": None,
        "paths": paths,
    }
    if os.path.exists(report):
        text = open(report, "rb").read().decode("utf-8", "replace")
        try:
            record["report"] = json.loads(text)
        except ValueError:
            record["report"] = {"unparsable report": text}
    shutil.rmtree(scratch, ignore_errors=True)
    return record


# ---------------------------------------------------------------------------------------------
# Normalizing: what varies between runs, machines and trees, and nothing else.

# Keys whose values are measured, not computed: dropped.
VARYING_KEYS = {"execution_time"}
# extra_data.gpulab keys that describe the machine: replaced by a placeholder.
MACHINE_KEYS = {"compiler", "host_compiler", "bwrap"}


def path_rules(paths):
    """(literal, placeholder) pairs, longest first, each path as given and as resolved."""
    rules = []
    for key in ("scratch", "submission", "cache", "build", "source"):
        p = paths.get(key)
        if not p:
            continue
        for form in {p, os.path.realpath(p)}:
            rules.append((form, f"<{key}>"))
    rules.sort(key=lambda r: -len(r[0]))
    return rules


PATTERNS = [
    # gpulab's and the compilers' temporary folders and files.
    (re.compile(r"/tmp/(gpulab|cc|tmp)[-A-Za-z0-9_.]*"), "<tmp>"),
    # The same folder in a path that a message cut at its head, anywhere in the folder's name
    # ("...tmp/gpulab-3nvAwK/submission/...", "...ab-3nvAwK/submission/...").
    (re.compile(r"\.\.\.[-A-Za-z0-9_./]*?(?=/submission/)"), "...<tmp>"),
    # Wall-clock durations in messages ("after 3.4 s", "12.5 ms", "took 2 seconds").
    (re.compile(r"\b\d+(\.\d+)?( ?)(ms|s|seconds|second|us|µs|min)\b"), r"<n>\2\3"),
    # Process ids.
    (re.compile(r"\b(pid|process) \d+\b"), r"\1 <pid>"),
    # Addresses (the sim's findings name them), which move with every run's memory layout.
    (re.compile(r"\b0x[0-9a-f]{6,16}\b"), "0x<address>"),
    # User and group ids: a run unsandboxed runs as a user of its own, drawn for it.
    (re.compile(r"\b(uid|euid|gid) \d+\b"), r"\1 <id>"),
    # A compiler's underline of a quoted line, as long as that line, whose path differs between
    # trees ("<source>" above stands for either).
    (re.compile(r"(?m)^( *)\^~+$"), r"\1^~"),
]

# Cases whose submission does something else on every run, by design or by a race of its own:
# only their grades (scores, maxima, test names, statuses) and exit code are compared, never
# their texts.
RANDOM_CASES = {
    "adversarial/scan/hostile-runs": "every call draws a seed of its own "
                                     "(tests/adversarial/scan/hostile-runs/scan.cu)",
    "adversarial/scatter-gather/cpu-thread-after-return":
        "the thread it leaves running crashes the run at a moment of its own, before or after "
        "the runner has said why it fails",
}


def normalize_text(text, rules):
    for literal, placeholder in rules:
        text = text.replace(literal, placeholder)
    host = socket.gethostname()
    if host:
        text = text.replace(host, "<host>")
    for pattern, repl in PATTERNS:
        text = pattern.sub(repl, text)
    return text


def normalize_value(v, rules, key=None):
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in VARYING_KEYS:
                continue
            out[k] = "<machine>" if k in MACHINE_KEYS else normalize_value(x, rules, k)
        return out
    if isinstance(v, list):
        return [normalize_value(x, rules) for x in v]
    if isinstance(v, str):
        return normalize_text(v, rules)
    return v


def normalize(record):
    rules = path_rules(record["paths"])
    terminal = normalize_text(record["terminal"], rules)
    return {
        "case": record["case"],
        "argv": normalize_value(record["argv"], rules),
        "exit_code": record["exit_code"],
        "report": normalize_value(record["report"], rules),
        "terminal": terminal.splitlines(),
    }


# ---------------------------------------------------------------------------------------------
# Saving and loading


def save_record(folder, r):
    for sub, record in (("raw", r), ("normalized", normalize(r))):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
        with open(os.path.join(folder, sub, flat(r["case"]) + ".json"), "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)


def load(folder):
    manifest = os.path.join(folder, "manifest.json")
    if not os.path.exists(manifest):
        sys.exit(f"compare_reports: {folder} holds no finished run (no manifest.json)")
    meta = json.load(open(manifest))
    records = {}
    raw = os.path.join(folder, "raw")
    for f in sorted(os.listdir(raw)):
        r = json.load(open(os.path.join(raw, f)))
        records[r["case"]] = r
    return meta, records


def run_side(side, cases, jobs, label, save_to):
    """Grades every case, each record saved in `save_to` (when given) as it comes, the manifest
    at the end; returns (records by case, manifest)."""
    if save_to:
        shutil.rmtree(save_to, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="gpulab-compare-")
    cache = os.path.join(work, "cache")
    os.makedirs(cache)
    todo = cases
    records = {}
    start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(grade, side, c, work, cache): c for c in todo}
            for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
                r = fut.result()
                records[r["case"]] = r
                if save_to:
                    save_record(save_to, r)
                print(f"[{label} {i}/{len(todo)}] {r['case']}: exit {r['exit_code']}, "
                      f"{r['seconds']} s", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    meta = {
        "binary": side.binary,
        "source": side.source,
        "hidden_seed": HIDDEN_SEED,
        "graded": len(todo),
        "seconds": round(time.monotonic() - start),
        "jobs": jobs,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    if save_to:
        with open(os.path.join(save_to, "manifest.json"), "w") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
    return records, meta


# ---------------------------------------------------------------------------------------------
# Comparing


def keyed(items):
    """A list of tests or dataset rows as a dict by name, where each has one."""
    if not all(isinstance(x, dict) for x in items):
        return None
    keys = []
    for x in items:
        if "name" in x:
            keys.append(x["name"])
        elif "part" in x and "dataset" in x:
            keys.append(f"{x['part']}/{x['dataset']}")
        else:
            return None
    return dict(zip(keys, items)) if len(set(keys)) == len(keys) else None


def diff_values(old, new, path, out):
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new), key=str):
            if k not in new:
                out.append(f"{path}.{k}: removed (was {json.dumps(old[k])[:200]})")
            elif k not in old:
                out.append(f"{path}.{k}: added ({json.dumps(new[k])[:200]})")
            else:
                diff_values(old[k], new[k], f"{path}.{k}", out)
        return
    if isinstance(old, list) and isinstance(new, list):
        ko, kn = keyed(old), keyed(new)
        if ko is not None and kn is not None:
            if list(ko) != list(kn) and set(ko) == set(kn):
                out.append(f"{path}: same entries in another order")
            for k in list(ko) + [k for k in kn if k not in ko]:
                if k not in kn:
                    out.append(f"{path}[{k!r}]: removed")
                elif k not in ko:
                    out.append(f"{path}[{k!r}]: added ({json.dumps(kn[k])[:300]})")
                else:
                    diff_values(ko[k], kn[k], f"{path}[{k!r}]", out)
            return
        if all(isinstance(x, str) for x in old + new):
            lines = difflib.unified_diff(old, new, lineterm="", n=1)
            out.append(f"{path}:\n    " + "\n    ".join(list(lines)[2:]))
            return
        for i in range(max(len(old), len(new))):
            if i >= len(new):
                out.append(f"{path}[{i}]: removed")
            elif i >= len(old):
                out.append(f"{path}[{i}]: added ({json.dumps(new[i])[:300]})")
            else:
                diff_values(old[i], new[i], f"{path}[{i}]", out)
        return
    if isinstance(old, str) and isinstance(new, str) and ("\n" in old or "\n" in new):
        lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1)
        out.append(f"{path}:\n    " + "\n    ".join(list(lines)[2:]))
        return
    out.append(f"{path}: {json.dumps(old)[:300]} -> {json.dumps(new)[:300]}")


def grades(record):
    """What a student's grade is made of: exit code, score, and each test's name, score,
    maximum and status."""
    r = record["report"] or {}
    tests = [(t.get("name"), t.get("score"), t.get("max_score"), t.get("status"))
             for t in r.get("tests", []) if isinstance(t, dict)]
    return record["exit_code"], r.get("score"), tests


def compare(old, new, old_meta, new_meta):
    """Prints each difference; returns the number of cases that differ or disappeared."""
    bad = 0
    same = 0
    graded_differently = []
    for name in sorted(set(old) | set(new)):
        if name not in new:
            print(f"ONLY OLD {name}: graded before, not now")
            bad += 1
            continue
        if name not in old:
            print(f"ONLY NEW {name}: a case the old tree did not have")
            continue
        a, b = normalize(old[name]), normalize(new[name])
        a.pop("argv"), b.pop("argv")
        diffs = []
        if name in RANDOM_CASES:
            print(f"RANDOM {name}: grades and exit code only ({RANDOM_CASES[name]})")
            a, b = ({"grades": json.loads(json.dumps(grades(x)))} for x in (a, b))
        diff_values(a, b, "", diffs)
        if diffs:
            bad += 1
            scores = grades(a) != grades(b)
            if scores:
                graded_differently.append(name)
            print(f"DIFFERS {name}" + (" (scores, maxima, names or statuses)" if scores
                                       else " (texts or fields only)"))
            for d in diffs:
                print("  " + d.lstrip("."))
        else:
            same += 1
    print(f"\n{same} cases the same, {bad} differ or disappeared")
    if graded_differently:
        print(f"graded differently ({len(graded_differently)}): " + ", ".join(graded_differently))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", help="the old build folder (or its gpulab binary): grade with it")
    ap.add_argument("--old-reports", help="reports saved by an earlier run (--save-*)")
    ap.add_argument("--new", help="the new build folder (or its gpulab binary): grade with it")
    ap.add_argument("--new-reports", help="reports saved by an earlier run")
    ap.add_argument("--save-old", help="save the old side's reports in this folder")
    ap.add_argument("--save-new", help="save the new side's reports in this folder")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases graded at once (default 1)")
    ap.add_argument("--only", action="append", default=[],
                    help="grade only cases whose name matches this glob (repeatable)")
    ap.add_argument("--list", action="store_true", help="print the corpus and exit")
    o = ap.parse_args()
    if o.old and o.old_reports or o.new and o.new_reports:
        ap.error("give a side as a build or as saved reports, not both")

    def select(cases):
        if not o.only:
            return cases
        return [c for c in cases if any(fnmatch.fnmatch(c.name, g) for g in o.only)]

    sides = {}
    for label, build, saved, save_to in (("old", o.old, o.old_reports, o.save_old),
                                         ("new", o.new, o.new_reports, o.save_new)):
        if saved:
            meta, records = load(saved)
            if o.only:
                records = {k: v for k, v in records.items()
                           if any(fnmatch.fnmatch(k, g) for g in o.only)}
            sides[label] = (records, meta)
        elif build:
            side = Side(build)
            cases = select(corpus(side.source))
            if o.list:
                for c in cases:
                    print(f"{c.name}: " + " ".join(c.args))
                continue
            records, meta = run_side(side, cases, max(1, o.jobs), label, save_to)
            print(f"{label}: graded {meta['graded']} cases with {side.binary} in "
                  f"{meta['seconds']} s", file=sys.stderr)
            sides[label] = (records, meta)
    if o.list:
        return 0
    if len(sides) < 2:
        if not (o.save_old or o.save_new):
            ap.error("name two sides (--old/--old-reports and --new/--new-reports), or save one")
        return 0
    (old, old_meta), (new, new_meta) = sides["old"], sides["new"]
    return 1 if compare(old, new, old_meta, new_meta) else 0


if __name__ == "__main__":
    sys.exit(main())
