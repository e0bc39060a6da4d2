#!/usr/bin/env python3
"""floor.cu's output as shares of throughput: `summary.py [OUT...]` (default: out.txt and out-6.txt).

For each run, per kernel and size, the lab's bandwidth kernel's median over the kernel's in
the same round: the share of the bandwidth kernel's throughput that issue 37's correctly
rounded target reads. Each cell is the range over the rounds, warm / cold. Ratios of medians
within one round; nothing here is a timing test."""
import re, sys
from collections import defaultdict

# What each column of floor.cu's output is, in the order the runs added them.
LEGEND = {
    "lab CR": "the lab's sum_correctly_rounded (main's PTX)",
    "red": "the loads, a float block sum, one red a block",
    "handoff": "the same, ending as the deterministic sum's handoff route",
    "ticket": "the same, ending with a red, a fence and a finish ticket",
    "f64": "ticket, the floats added in f64",
    "checked": "f64, every addition checked and voted on",
    "limbs": "checked, two limb reds a block, ten limbs gathered",
    "apart": "limbs, the limbs 128 bytes apart",
    "line": "limbs, the ticket in the limbs' 128-byte line",
    "one red": "limbs, one red a block",
    "lanes": "limbs, the gather a lane a limb",
    "far": "limbs, the limbs 4 KB apart",
    "same": "limbs, both reds to one limb",
    "three": "limbs, three reds a block",
    "bound": "f64, exactness proved by a bound on the magnitudes",
}
SIZES = (262144, 1048576, 4194304)
LABEL = {"lab correctly rounded": "lab CR"}

def span(values):
    lo, hi = f"{min(values):.2f}", f"{max(values):.2f}"
    return lo if lo == hi else f"{lo}-{hi}"

def shares(path):
    lines = open(path).read().splitlines()
    names = [x.strip() for x in next(l for l in lines if l.startswith("n ")).split("|")[1:]]
    out = defaultdict(list)
    for line in lines:
        if re.match(r"^\d+\s+(warm|cold)", line):
            cells = line.split("|")
            n, cache = cells[0].split()[:2]
            times = dict(zip(names, map(float, cells[1:])))
            for k in names[1:]:
                out[(LABEL.get(k, k), int(n), cache)].append(times["lab bandwidth"] / times[k])
    kernels = [LABEL.get(k, k) for k in names[1:]]
    return next(l for l in lines if l.startswith(("sums:", "WRONG"))), kernels, out

def main(paths):
    for path in paths:
        check, kernels, out = shares(path)
        print(path)
        print(check)
        print((f"{'kernel':<8}|" + "|".join(f"{'2^%d warm/cold' % (n.bit_length() - 1):^21}" for n in SIZES)).rstrip())
        for k in kernels:
            cells = []
            for n in SIZES:
                w, c = out[(k, n, "warm")], out[(k, n, "cold")]
                cells.append(f"{span(w)}/{span(c)}")
            print((f"{k:<8}|" + "|".join(f" {c:<20}" for c in cells)).rstrip())
        print()
    print("Cells: the share of the lab bandwidth kernel's throughput, over the rounds.")
    for k, what in LEGEND.items():
        print(f"  {k}: {what}")

if __name__ == "__main__":
    main(sys.argv[1:] or ["out.txt", "out-6.txt"])
