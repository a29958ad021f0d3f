#!/usr/bin/env python3
"""lab.json's schema (labs/lab.schema.json) against the labs and the loader's cases.

Checks that the schema is a valid JSON Schema; that every labs/*/lab.json meets it; that each
case of cases.json (the edits the C++ loader's unit test, tests/unit/lab_contract_test.cpp,
applies too) is rejected, or accepted where marked valid, as the loader does; and that an
unknown key at any level of any lab.json is rejected, as the loader rejects it.

Usage: check_lab_schema.py <source dir>. Exits 1 on any disagreement, and when the jsonschema
module is missing (python3-jsonschema, scripts/setup.sh): this test never skips.
"""
import copy
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("check_lab_schema: the jsonschema module is missing: install python3-jsonschema "
             "(scripts/setup.sh)")

# Objects whose keys are names (outputs, rubric parts) or a generator's parameters: a new key
# there is not a misspelt one. A part's rubric (/rubric/<part>) names its groups too.
NAME_MAPS = ("/outputs", "/rubric", "/params")


def names_keys(path):
    return path.endswith(NAME_MAPS) or (path.startswith("/rubric/") and path.count("/") == 2)


def apply_patch(doc, patch):
    """RFC 6902's add, remove and replace."""
    doc = copy.deepcopy(doc)
    for op in patch:
        *parents, last = [p.replace("~1", "/").replace("~0", "~")
                          for p in op["path"].split("/")[1:]]
        target = doc
        for p in parents:
            target = target[int(p)] if isinstance(target, list) else target[p]
        key = (len(target) if last == "-" else int(last)) if isinstance(target, list) else last
        if op["op"] == "add" and isinstance(target, list):
            target.insert(key, op["value"])  # RFC 6902: add inserts into an array
        elif op["op"] == "remove":
            del target[key]
        elif op["op"] in ("add", "replace"):
            if op["op"] == "replace" and (key not in target if isinstance(target, dict)
                                          else key >= len(target)):
                raise KeyError("replace: no %s" % op["path"])
            target[key] = op["value"]
        else:
            raise ValueError("unsupported op " + op["op"])
    return doc


def objects(value, path=""):
    """(JSON pointer, object) for every object in `value` where a key must be a known one."""
    if isinstance(value, dict):
        if not names_keys(path):
            yield path, value
        for k, v in value.items():
            yield from objects(v, path + "/" + k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from objects(v, "%s/%d" % (path, i))


def main():
    source = sys.argv[1]
    with open(os.path.join(source, "labs", "lab.schema.json")) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    problems = []

    labs = {}
    for path in sorted(glob.glob(os.path.join(source, "labs", "*", "lab.json"))):
        with open(path) as f:
            lab = json.load(f)
        labs[os.path.basename(os.path.dirname(path))] = lab
        for e in validator.iter_errors(lab):
            problems.append("%s: %s: %s" % (path, e.json_path, e.message))
        for pointer, obj in objects(lab):
            broken = apply_patch(lab, [{"op": "add", "path": pointer + "/zz_not_a_key",
                                        "value": 1}])
            if validator.is_valid(broken):
                problems.append("%s: the schema accepts an unknown key at %s" %
                                (path, pointer or "the top level"))
    if len(labs) < 6:
        problems.append("found %d labs under %s/labs" % (len(labs), source))

    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")) as f:
        cases = json.load(f)["cases"]
    for case in cases:
        lab = apply_patch(labs[case["lab"]], case["patch"])
        errors = [e.message for e in validator.iter_errors(lab)]
        if case.get("valid") and errors:
            problems.append("case %r: the loader accepts it, the schema does not: %s" %
                            (case["what"], errors[0]))
        # A cross-reference (a rubric's part names, say) only the loader can check.
        if not case.get("valid") and not case.get("loader_only") and not errors:
            problems.append("case %r: the loader rejects it (%s), the schema does not" %
                            (case["what"], case["error"]))

    for p in problems:
        print(p)
    print("check_lab_schema: %d labs, %d cases, %d problems" % (len(labs), len(cases),
                                                                 len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
