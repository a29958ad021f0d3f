#!/usr/bin/env python3
"""The handouts' figures are what `gpulab figures` draws now: for every lab with a folder in
handouts/figures/, the command is run into a temporary folder and each file must be there, with
the same bytes, and nothing more or less; every SVG must parse as XML, every figure be shown by
its lab's handout, and a lab without figures (or, where every lab has some, a name that is no
lab) be refused.

    tests/figures/check_figures.py --gpulab build/gpulab --source .

A change that alters a figure (the algorithm, a dataset's generator, the drawing) fails here
until the figures are drawn again: `build/gpulab figures <lab>` for each lab, and committed.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


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
                problems.append(f"gpulab figures {lab} failed: {run.stderr.strip()}")
                continue
            committed = os.path.join(committed_root, lab)
            drawn, kept = sorted(os.listdir(out)), sorted(os.listdir(committed))
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
    for p in problems:
        print(p)
    if problems:
        print("redraw with: build/gpulab figures <lab> (then commit handouts/figures/)")
        return 1
    print(f"{len(labs)} labs' figures are what gpulab draws")
    return 0


if __name__ == "__main__":
    sys.exit(main())
