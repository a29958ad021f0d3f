#!/usr/bin/env python3
"""Reads the result.json lines (JSON Lines) of timed CPU-part runs of one implementation
(gpu-check.sh cpu-noise), and prints each run's median and minimum sample, their spread across
runs, and what grades would see: every window of 2R consecutive runs split S R, R S, ... into R
rounds, scored as the ratio of the medians and as the median of the rounds' ratios."""
import json
import statistics
import sys

runs = [json.loads(line)["timing"] for line in open(sys.argv[1]) if line.strip()]
summaries = {
    "median": lambda t: statistics.median(t["samples_ms"]),
    "min": lambda t: min(t["samples_ms"]),
}
print("%-7s %s" % ("summary", "per run (ms) ... spread (max/min - 1)"))
for name, f in summaries.items():
    values = [f(t) for t in runs]
    print("%-7s %s  spread %.2f%%" % (name, " ".join("%.2f" % v for v in values),
                                       100 * (max(values) / min(values) - 1)))
print("samples per run:", [len(t["samples_ms"]) for t in runs])

medians = [summaries["median"](t) for t in runs]
for rounds in (5, 7):
    of_medians, of_rounds = [], []
    for start in range(len(medians) - 2 * rounds + 1):
        window = medians[start:start + 2 * rounds]
        s = [window[2 * r + (r % 2)] for r in range(rounds)]
        ref = [window[2 * r + 1 - (r % 2)] for r in range(rounds)]
        of_medians.append(statistics.median(s) / statistics.median(ref))
        of_rounds.append(statistics.median([a / b for a, b in zip(s, ref)]))
    if of_rounds:
        print("%d rounds, %d grades: ratio of medians spread %.2f%%, median of round ratios "
              "spread %.2f%%" % (rounds, len(of_rounds),
                                 100 * (max(of_medians) / min(of_medians) - 1),
                                 100 * (max(of_rounds) / min(of_rounds) - 1)))
