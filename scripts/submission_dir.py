#!/usr/bin/env python3
"""Prints the directory to grade for a shipped submission: its own directory, or, for a planted
bug written as edits of the reference (expect.json "from_reference", see
tests/e2e/labs_e2e.cpp), a copy of reference/<lab> with the edits applied and the files that
"append_to_reference" names appended from the submission's own folder, made under OUT.

    python3 scripts/submission_dir.py tests/submissions/<lab>/<name> OUT
"""
import json
import os
import shutil
import sys


def main():
    sub, out = sys.argv[1].rstrip("/"), sys.argv[2]
    spec_path = os.path.join(sub, "expect.json")
    spec = json.load(open(spec_path)) if os.path.exists(spec_path) else {}
    if "from_reference" not in spec and "append_to_reference" not in spec:
        print(sub)
        return
    lab, name = os.path.basename(os.path.dirname(sub)), os.path.basename(sub)
    ref = os.path.join("reference", lab)
    dst = os.path.join(out, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(ref, dst)
    for file, edits in spec.get("from_reference", {}).items():
        text = open(os.path.join(ref, file)).read()
        for old, new in edits:
            if text.count(old) != 1:
                sys.exit(f"{sub}: the edit no longer applies to {ref}/{file}:\n{old}")
            text = text.replace(old, new)
        open(os.path.join(dst, file), "w").write(text)
    for file in spec.get("append_to_reference", []):
        with open(os.path.join(dst, file), "a") as out_file:
            out_file.write("\n" + open(os.path.join(sub, file)).read())
    print(dst)


if __name__ == "__main__":
    main()
