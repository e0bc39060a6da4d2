#!/usr/bin/env python3
"""Ratios of medians within each round of out.txt, the range over the rounds: python3 summary.py out.txt"""
import sys
from collections import defaultdict

rows = defaultdict(list)  # (n, cache) -> [{name: us}]
names = None
for line in open(sys.argv[1]):
    if line.startswith("bits") or line.startswith("# median"):
        print("out.txt:", line.strip())
        continue
    if line.startswith("#"):
        continue
    cells = [c.strip() for c in line.split("|")]
    head = cells[0].split()
    if head[0] == "n":
        names = cells[1:]
        continue
    values = {k: float(v) for k, v in zip(names, cells[1:]) if v != "-"}
    rows[(int(head[0]), head[1])].append(values)

RATIOS = [
    ("new CR / main CR", "new CR", "main CR"),
    ("new CR / CUB", "new CR", "CUB"),
    ("main CR / CUB", "main CR", "CUB"),
    ("new det / det", "new det", "det"),
    ("det / fastest", "det", None),
    ("new det / fastest", "new det", None),
    ("fastest / CUB", None, "CUB"),
    ("det, CR smem / det", "det, CR smem", "det"),
    ("empty, smem / empty", "empty, smem", "empty"),
]


def value(r, name):
    if name is None:  # the fastest of the lab's non-deterministic sums at these sizes
        return min(r["bandwidth"], r["warp shuffle"])
    return r.get(name)


print("fastest = the faster of main's bandwidth and warp-shuffle sums in the same round")
print("%6s %-5s | " % ("n", "cache") + " | ".join("%19s" % r[0] for r in RATIOS))
for (n, cache), rounds in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    cells = []
    for _, a, b in RATIOS:
        ratios = [value(r, a) / value(r, b) for r in rounds if value(r, a) is not None and value(r, b) is not None]
        cells.append("%19s" % ("%.2f-%.2f" % (min(ratios), max(ratios)) if ratios else "-"))
    print("%6d %-5s | " % (n, cache) + " | ".join(cells))
