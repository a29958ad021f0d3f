#!/usr/bin/env python3
"""Largest error/bound ratio per submission and part, from gpulab results.json files.

Honest submissions show how much of the tolerance real rounding uses (K is calibrated from
them); cheats and planted bugs show by how much they exceed it. Used to choose K in lab.json.
"""
import json
import sys

for path in sys.argv[1:]:
    report = json.load(open(path))
    rows = report.get("extra_data", {}).get("datasets", [])
    by_part = {}
    for row in rows:
        ratio = row["err_over_bound"]
        worst = by_part.get(row["part"])
        value = float("inf") if ratio is None else ratio
        if worst is None or value > worst[0]:
            by_part[row["part"]] = (value, row["dataset"], row["result"])
    name = path.rsplit("/", 1)[-1]
    for part, (value, dataset, result) in sorted(by_part.items()):
        print(f"{name:40s} {part:9s} max err/bound {value:10.4g} on {dataset} ({result})")
