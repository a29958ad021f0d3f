#!/usr/bin/env python3
"""Validates reports gpulab wrote against their formats' schemas (grader/schemas/<format>.schema.json).

A report's format is told by its shape: gpulab's own has "format": "gpulab-report"; PrairieLearn's
has "gradable"; GitHub Classroom's has a top-level "version" and "status"; any other is
Gradescope's. A format found without a schema file is an error, as is a file that is not JSON.

Usage:
  check_reports.py [--source DIR] FILE_OR_FOLDER...  every *.json under each folder
  check_reports.py [--source DIR] --self-test        every schema is a valid JSON Schema, and
      for each, tests/report_schema/fixtures/<format>/ holds good*.json files it accepts and
      bad*.json files it rejects (fixtures/<format>.good*.json and .bad*.json count too), each
      told to be of that format; a report of a format without a schema is an error.
Exits 1 on any violation, and when the jsonschema module is missing (python3-jsonschema,
scripts/setup.sh): this check never skips. Each violation names the file, the format, where in
the report and what is wrong.
"""
import argparse
import glob
import json
import os
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("check_reports: the jsonschema module is missing: install python3-jsonschema "
             "(scripts/setup.sh)")

HERE = os.path.dirname(os.path.abspath(__file__))
GPULAB_FORMAT_NAME = "gpulab-report"


def format_of(report):
    """The format a report is in, by its shape."""
    if isinstance(report, dict):
        if report.get("format") == GPULAB_FORMAT_NAME:
            return "gpulab"
        if "gradable" in report:
            return "prairielearn"
        if "version" in report and "status" in report:
            return "github-classroom"
    return "gradescope"


class Schemas:
    def __init__(self, folder):
        self.folder = folder
        self.validators = {}

    def path(self, fmt):
        return os.path.join(self.folder, fmt + ".schema.json")

    def validator(self, fmt):
        """The format's validator; raises LookupError where it has no schema file."""
        if fmt not in self.validators:
            path = self.path(fmt)
            if not os.path.isfile(path):
                raise LookupError("no schema for the format %s (%s)" % (fmt, path))
            with open(path) as f:
                schema = json.load(f)
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            self.validators[fmt] = cls(schema)
        return self.validators[fmt]


def violations(path, schemas):
    """(format, [problem, ...]) for one report file."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        return None, ["not a JSON report: %s" % e]
    fmt = format_of(report)
    try:
        validator = schemas.validator(fmt)
    except LookupError as e:
        return fmt, [str(e)]
    return fmt, ["%s: %s" % (e.json_path, e.message)
                 for e in sorted(validator.iter_errors(report), key=lambda e: list(e.path))]


def report_files(paths):
    for p in paths:
        if os.path.isdir(p):
            yield from sorted(glob.glob(os.path.join(p, "**", "*.json"), recursive=True))
        else:
            yield p


def check(paths, schemas):
    problems, count = [], 0
    for path in report_files(paths):
        count += 1
        fmt, found = violations(path, schemas)
        problems += ["%s: %s: %s" % (path, fmt or "?", p) for p in found]
    for p in problems:
        print(p)
    print("check_reports: %d reports, %d violations" % (count, len(problems)))
    return 1 if problems else 0


def self_test(schemas):
    problems = []
    formats = sorted(os.path.basename(p)[:-len(".schema.json")]
                     for p in glob.glob(os.path.join(schemas.folder, "*.schema.json")))
    if "gradescope" not in formats:
        problems.append("no gradescope schema in %s" % schemas.folder)
    for fmt in formats:
        try:
            schemas.validator(fmt)
        except jsonschema.SchemaError as e:
            problems.append("%s: not a valid JSON Schema: %s" % (schemas.path(fmt), e.message))
            continue
        folder = os.path.join(HERE, "fixtures", fmt)
        for kind, must_pass in (("good", True), ("bad", False)):
            files = sorted(glob.glob(os.path.join(folder, kind + "*.json")) +
                           glob.glob(os.path.join(HERE, "fixtures", fmt + "." + kind + "*.json")))
            if not files:
                problems.append("%s: no %s*.json fixture for the format %s" % (folder, kind, fmt))
            for path in files:
                found_fmt, found = violations(path, schemas)
                if found_fmt != fmt:
                    problems.append("%s: told to be %s, not %s" % (path, found_fmt, fmt))
                elif must_pass and found:
                    problems.append("%s: the schema rejects a good report: %s" % (path, found[0]))
                elif not must_pass and not found:
                    problems.append("%s: the schema accepts a bad report" % path)
    # A report of a format with no schema is a violation, not a pass.
    with tempfile.TemporaryDirectory() as empty:
        good = glob.glob(os.path.join(HERE, "fixtures", "gradescope", "good*.json"))
        if good and not violations(good[0], Schemas(empty))[1]:
            problems.append("a report whose format has no schema passed")
    for p in problems:
        print(p)
    print("check_reports --self-test: %d formats (%s), %d problems" %
          (len(formats), ", ".join(formats), len(problems)))
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", default=os.path.dirname(os.path.dirname(HERE)),
                        help="gpulab's source tree (default: this script's)")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    schemas = Schemas(os.path.join(args.source, "grader", "schemas"))
    if args.self_test:
        return self_test(schemas)
    if not args.paths:
        parser.error("give report files or folders, or --self-test")
    return check(args.paths, schemas)


if __name__ == "__main__":
    sys.exit(main())
