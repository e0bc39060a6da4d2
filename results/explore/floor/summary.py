#!/usr/bin/env python3
"""floor.cu's output as shares of throughput: `summary.py [out.txt]`. Per size and cache,
the lab's bandwidth kernel's median over each kernel's, in the same round (the share
of the bandwidth kernel's throughput that issue 37's correctly rounded target reads),
the range over the rounds. Ratios of medians within one round."""
import re, sys
from collections import defaultdict

def main(path):
    lines = open(path).read().splitlines()
    names = [x.strip() for x in next(l for l in lines if l.startswith("n ")).split("|")[1:]]
    shares = defaultdict(list)
    for line in lines:
        if not re.match(r"^\d+\s+(warm|cold)", line):
            continue
        cells = line.split("|")
        n, cache = cells[0].split()[:2]
        times = dict(zip(names, map(float, cells[1:])))
        shares[(int(n), cache)].append([times["lab bandwidth"] / times[k] for k in names[1:]])
    print(next(l for l in lines if l.startswith("sums:")))
    print("the lab's bandwidth kernel's time over each kernel's (its share of that throughput), range over the rounds")
    labels = ["lab CR", "red", "handoff", "ticket"]
    print(f"{'n':>9} {'cache':<5} | " + " | ".join(f"{k:>9}" for k in labels))
    for (n, cache), rounds in sorted(shares.items(), key=lambda kv: (kv[0][0], kv[0][1] == "cold")):
        cells = [f"{min(r[i] for r in rounds):.2f}-{max(r[i] for r in rounds):.2f}" for i in range(len(labels))]
        print(f"{n:>9} {cache:<5} | " + " | ".join(f"{c:>9}" for c in cells))
    print("lab CR: sum_correctly_rounded; red, handoff, ticket: floor.cu's three ends of a launch")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out.txt")
