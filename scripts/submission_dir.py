#!/usr/bin/env python3
"""Prints the directory to grade for a shipped submission: its own directory, or, for a planted
bug written as edits of the reference (expect.json "from_reference", see
tests/e2e/labs_e2e.cpp), a copy of reference/<lab> with the edits applied and the files that
"append_to_reference" names appended from the submission's own folder, made under OUT; in
either, @GPULAB_SOURCE_DIR@ stands for the source tree's absolute path (tests/e2e/expect.h).

    python3 scripts/submission_dir.py tests/submissions/<lab>/<name> OUT
"""
import json
import os
import shutil
import sys

# In a submission's own files, the source tree's absolute path (tests/e2e/expect.h).
SOURCE_PLACEHOLDER = "@GPULAB_SOURCE_DIR@"


def submission_dir(sub, out, source="."):
    """The directory to grade for the submission folder `sub` (see the module's text), made
    under `out` when it must be; `source` is the source tree whose reference/ it edits."""
    sub = sub.rstrip("/")
    spec_path = os.path.join(sub, "expect.json")
    spec = json.load(open(spec_path)) if os.path.exists(spec_path) else {}
    from_reference = "from_reference" in spec or "append_to_reference" in spec
    own = [f for f in sorted(os.listdir(sub)) if f != "expect.json"]
    templated = any(SOURCE_PLACEHOLDER.encode() in open(os.path.join(sub, f), "rb").read()
                    for f in own if os.path.isfile(os.path.join(sub, f)))
    if not from_reference and not templated:
        return sub
    lab, name = os.path.basename(os.path.dirname(sub)), os.path.basename(sub)
    ref = os.path.join(source, "reference", lab)
    dst = os.path.join(out, name)
    shutil.rmtree(dst, ignore_errors=True)
    if not from_reference:
        os.makedirs(dst)
        for f in own:
            shutil.copy(os.path.join(sub, f), dst)
    else:
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
    abs_source = os.path.abspath(source).encode()
    for f in os.listdir(dst):
        path = os.path.join(dst, f)
        if os.path.isfile(path):
            data = open(path, "rb").read()
            if SOURCE_PLACEHOLDER.encode() in data:
                open(path, "wb").write(data.replace(SOURCE_PLACEHOLDER.encode(), abs_source))
    return dst


def main():
    print(submission_dir(sys.argv[1], sys.argv[2]))


if __name__ == "__main__":
    main()
