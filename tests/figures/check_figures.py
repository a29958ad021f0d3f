#!/usr/bin/env python3
"""The handouts' figures are what `gpulab figures` draws now: for every lab with a folder in
handouts/figures/, the command is run into a temporary folder and each file must be there, with
the same bytes, and nothing more or less; every SVG must parse as XML, every figure be shown by
its lab's handout, and a lab without figures (or, where every lab has some, a name that is no
lab) be refused; and every number of QUOTES, which a handout's caption quotes from the record
its plot is drawn from (docs/bench/<lab>/<sweep>.json), must be the record's, rounded as quoted.

    tests/figures/check_figures.py --gpulab build/gpulab --source .

A change that alters a figure (the algorithm, a dataset's generator, the drawing) fails here
until the figures are drawn again: `build/gpulab figures <lab>` for each lab, and committed. A
sweep measured again fails here until its handout's caption quotes the new numbers. The bytes
are Cairo's, FreeType's and the font's (grader/plot/figure_canvas.h): the committed figures are
drawn with Debian 12's packages, and where the font is not installed this test says so once,
naming its package, rather than a difference per figure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


# The numbers the sweep plots' captions quote: (lab, sweep, part, value, the row's field, the
# caption's words with {} where the number stands, the number as the caption writes it).
QUOTES = [
    ("scatter-gather", "scatter-vs-gather", "scatter", v, "median_ms",
     "With 16 to 256 atoms the scatter takes the same {} ms", "10.9") for v in (16, 64, 256)
] + [
    ("scatter-gather", "scatter-vs-gather", "scatter", 16384, "median_ms",
     "({} ms at 16 384)", "26.6"),
    ("coarsening", "points-per-thread", "coarsened", 16, "per_s",
     "C = 16 it reaches {} atom-evals/s", "3.8·10¹²"),
    ("coarsening", "points-per-thread", "coarsened", 1, "per_s",
     "kernel with one point per thread ({})", "2.2·10¹¹"),
    ("coarsening", "points-per-thread", "coarsened", 8, "per_s",
     "the reference first matches it at C = 8 ({})", "2.0·10¹²"),
    ("histogram", "contention", "histogram-global", 1, "per_s",
     "With one bin, global atomics manage {} keys/s", "1.4·10⁹"),
    ("histogram", "contention", "histogram-global", 1, "median_ms",
     "keys/s ({} ms): every update waits in the one queue", "12.3"),
    ("histogram", "contention", "histogram-global", 65536, "per_s",
     "reach {} keys/s at 65 536 bins", "7·10¹⁰"),
]

# The package gpulab's error names where the figures' font is missing.
FONT_PACKAGE = "fonts-dejavu-core"

DRAWING_CODE = re.compile(r"\.(cpp|h)$")

SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def quoted_range(number):
    """The values that round to `number` ("3.8·10¹²", "12.3"): (low, high)."""
    mantissa, _, exponent = number.partition("·10")
    scale = 10.0 ** int(exponent.translate(SUPERSCRIPT)) if exponent else 1.0
    decimals = len(mantissa.partition(".")[2])
    half = 0.5 * 10.0 ** -decimals * scale
    value = float(mantissa) * scale
    return value - half, value + half


def quote_problems(source):
    problems = []
    for lab, sweep, part, value, field, words, number in QUOTES:
        with open(os.path.join(source, "handouts", lab + ".md")) as f:
            handout = " ".join(f.read().split())
        where = f"handouts/{lab}.md"
        if words.format(number) not in handout:
            problems.append(f"{where} no longer says \"{words.format(number)}\": "
                            "update QUOTES in tests/figures/check_figures.py with the caption")
            continue
        record = os.path.join("docs", "bench", lab, sweep + ".json")
        with open(os.path.join(source, record)) as f:
            rows = [r for r in json.load(f)["rows"]
                    if r["part"] == part and r["value"] == value]
        if len(rows) != 1:
            problems.append(f"{record} has no single row for {part} at {value}")
            continue
        low, high = quoted_range(number)
        if not low <= rows[0][field] < high:
            problems.append(f"{where} quotes {number} for {part} at {value} ({field}), "
                            f"but {record} has {rows[0][field]:.4g}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpulab", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    committed_root = os.path.join(args.source, "handouts", "figures")
    labs = sorted(os.listdir(committed_root))
    problems = []
    if not labs:
        problems.append("handouts/figures/ holds no lab's figures")
    with tempfile.TemporaryDirectory(prefix="gpulab-figures-test-") as tmp:
        for lab in labs:
            out = os.path.join(tmp, lab)
            run = subprocess.run([args.gpulab, "figures", lab, "--out", out],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                if FONT_PACKAGE in run.stderr:
                    print(f"the figures cannot be drawn here: {run.stderr.strip()}")
                    return 1
                problems.append(f"gpulab figures {lab} failed: {run.stderr.strip()}")
                continue
            committed = os.path.join(committed_root, lab)
            # The lab's figure code lives beside its figures (figures.cpp and its helpers).
            drawn = sorted(os.listdir(out))
            kept = sorted(n for n in os.listdir(committed) if not DRAWING_CODE.search(n))
            for name in sorted(set(drawn) | set(kept)):
                where = f"handouts/figures/{lab}/{name}"
                if name not in kept:
                    problems.append(f"{where} is drawn but not committed")
                elif name not in drawn:
                    problems.append(f"{where} is committed but no longer drawn")
                else:
                    with open(os.path.join(out, name), "rb") as a, \
                            open(os.path.join(committed, name), "rb") as b:
                        if a.read() != b.read():
                            problems.append(f"{where} differs from what gpulab draws now")
                if name.endswith(".svg") and name in drawn:
                    try:
                        ET.parse(os.path.join(out, name))
                    except ET.ParseError as e:
                        problems.append(f"{where} is not well-formed XML: {e}")
            with open(os.path.join(args.source, "handouts", lab + ".md")) as f:
                handout = f.read()
            for name in kept:
                if name.endswith(".svg") and f"](figures/{lab}/{name})" not in handout:
                    problems.append(f"handouts/{lab}.md does not show figures/{lab}/{name}")
        # A lab without figures is refused, naming the labs that have some; where every lab
        # has figures, a name that is no lab is refused.
        labs_dir = os.path.join(args.source, "labs")
        without = [lab for lab in sorted(os.listdir(labs_dir))
                   if os.path.isfile(os.path.join(labs_dir, lab, "lab.json"))
                   and lab not in labs]
        name = without[0] if without else "no-such-lab"
        refused = subprocess.run([args.gpulab, "figures", name, "--out",
                                  os.path.join(tmp, "none")], capture_output=True, text=True)
        expected = "labs with figures" if without else f'"{name}"'
        if refused.returncode == 0 or expected not in refused.stderr:
            what = "a lab without figures" if without else "no lab"
            problems.append(f"gpulab figures {name} ({what}) was not refused")
    drawn_problems = len(problems)
    problems += quote_problems(args.source)
    for p in problems:
        print(p)
    if drawn_problems:
        print("redraw with: build/gpulab figures <lab> (then commit handouts/figures/), "
              "with Debian 12's Cairo, FreeType and fonts-dejavu-core")
    if problems:
        return 1
    print(f"{len(labs)} labs' figures are what gpulab draws, and their captions quote "
          f"{len(QUOTES)} numbers as recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
