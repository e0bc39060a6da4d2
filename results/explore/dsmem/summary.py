#!/usr/bin/env python3
"""The bits check and ratios from dsmem's out.txt (the file beside this one):
how many of the prototypes' sums equalled the lab's, then, per size and cache
state, each deterministic sum's median over the fastest non-deterministic
sum's (the lab's bandwidth or warp-shuffle kernel, whichever is faster in that
round), and each prototype's over the lab's deterministic sum, as the range
over the rounds. Usage: summary.py [out.txt]"""
import sys
from collections import defaultdict
from pathlib import Path

path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("out.txt"))
header, rows, bits = None, defaultdict(list), None
for line in path.read_text().splitlines():
    if line.startswith("bits: "):
        bits = line
    elif line.startswith("n "):
        header = [c.strip() for c in line.split("|")[1:]]
    elif header and line[:1].isdigit():
        cells = line.split("|")
        n, cache, _ = cells[0].split()
        rows[(int(n), cache)].append(dict(zip(header, map(float, cells[1:]))))

def span(values):
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}-{hi:.2f}"

kinds = ["lab deterministic", "push (cluster/chunk)", "spread (cluster 16)"]
print(f"{path.name}, before any timing: {bits.removeprefix('bits: ')}")
print(f"{path.name}: ratios of medians within a round, the range over {len(next(iter(rows.values())))} rounds.")
print("lab = the lab's sum_deterministic; push, spread = the prototypes; fastest = the faster of the lab's")
print("bandwidth and warp-shuffle sums; empty16 = an empty kernel in a cluster of 16, over one without clusters.")
print(f"{'n':>6} {'cache':5} | {'lab/fastest':>11} | {'push/fastest':>12} | {'spread/fastest':>14} | "
      f"{'push/lab':>9} | {'spread/lab':>10} | {'empty16':>9}")
for (n, cache), rounds in sorted(rows.items()):
    fastest = [min(r["lab bandwidth"], r["lab warp shuffle"]) for r in rounds]
    cells = [span([r[k] / f for r, f in zip(rounds, fastest)]) for k in kinds]
    cells += [span([r[k] / r["lab deterministic"] for r in rounds]) for k in kinds[1:]]
    cells.append(span([r["empty, cluster 16"] / r["empty"] for r in rounds]))
    widths = [11, 12, 14, 9, 10, 9]
    print(f"{n:>6} {cache:5} | " + " | ".join(f"{c:>{w}}" for c, w in zip(cells, widths)))
