#!/usr/bin/env python3
"""Largest error/bound per submission and dataset, over seeds, from gpulab results.json files.

    python3 scripts/tolerance_table.py OUT/calscan-<submission>-seed<seed>.json ...

Each file is one grade (scripts/gpu-check.sh calibrate-scan names them so); its extra_data gives
every dataset's err_over_bound per part. A cell is the largest over the parts, as "lowest-highest"
over the seeds graded (one value for a public dataset, whose seed is fixed, or a single seed);
"inf" is a NaN, an unwritten element, or a nonzero where the bound is 0. A Markdown table, for
docs/PERF.md.
"""
import json
import math
import re
import sys


def main():
    cells = {}  # (submission, dataset) -> {seed: worst over parts}
    subs, datasets = [], []
    for path in sys.argv[1:]:
        m = re.search(r"calscan-(.+)-seed([^/]+)\.json$", path)
        if not m:
            sys.exit(f"{path}: not named calscan-<submission>-seed<seed>.json")
        sub, seed = m.group(1), m.group(2)
        rows = json.load(open(path)).get("extra_data", {}).get("datasets", [])
        if not rows:
            sys.exit(f"{path}: no extra_data.datasets (did the submission build?)")
        if sub not in subs:
            subs.append(sub)
        for row in rows:
            ratio = row["err_over_bound"]
            value = math.inf if ratio is None else float(ratio)
            ds = row["dataset"]
            if ds not in datasets:
                datasets.append(ds)
            per_seed = cells.setdefault((sub, ds), {})
            per_seed[seed] = max(per_seed.get(seed, 0.0), value)

    def fmt(x):
        return "inf" if math.isinf(x) else f"{x:.3g}"

    print("| submission | " + " | ".join(datasets) + " |")
    print("|---|" + "---:|" * len(datasets))
    for sub in subs:
        row = []
        for ds in datasets:
            v = list(cells.get((sub, ds), {}).values())
            if not v:
                row.append("-")
            elif min(v) == max(v):
                row.append(fmt(max(v)))
            else:
                row.append(f"{fmt(min(v))}-{fmt(max(v))}")
        print(f"| {sub} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
