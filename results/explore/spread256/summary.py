#!/usr/bin/env python3
"""spread.cu's output as ratios: `summary.py [out.txt]`. Per size and cache, each
deterministic kernel's median over the faster of the lab's bandwidth and warp-shuffle
sums in the same round, the range over the rounds. Ratios of medians within one round."""
import re, sys
from collections import defaultdict

KERNELS = ["lab deterministic", "lab deterministic few", "push (cluster/chunk)", "spread (cluster 16)",
           "spread256 (cluster 16)"]
# Column labels: the lab's general entry and its small entry, then the three prototypes.
LABELS = ["general", "few", "push", "spread", "spread256"]

def main(path):
    lines = open(path).read().splitlines()
    names = [x.strip() for x in next(l for l in lines if l.startswith("n ")).split("|")[1:]]
    ratios = defaultdict(list)
    for line in lines:
        if not re.match(r"^\d+\s+(warm|cold)", line):
            continue
        cells = line.split("|")
        n, cache = cells[0].split()[:2]
        times = dict(zip(names, map(float, cells[1:])))
        fastest = min(times["lab bandwidth"], times["lab warp shuffle"])
        ratios[(int(n), cache)].append([times[k] / fastest for k in KERNELS])
    print(lines[0])
    print("each deterministic kernel over the fastest of the lab's bandwidth and warp-shuffle sums, range over the rounds;")
    print("general, few: the lab's sum_deterministic and sum_deterministic_few; push, spread, spread256: the prototypes")
    print(f"{'n':>6} {'cache':<5} | " + " | ".join(f"{k:>9}" for k in LABELS))
    for (n, cache), rounds in sorted(ratios.items(), key=lambda kv: (kv[0][0], kv[0][1] == "cold")):
        cells = [f"{min(r[i] for r in rounds):.2f}-{max(r[i] for r in rounds):.2f}" for i in range(len(KERNELS))]
        print(f"{n:>6} {cache:<5} | " + " | ".join(f"{c:>9}" for c in cells))

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out.txt")
