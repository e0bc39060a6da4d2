#!/usr/bin/env python3
"""The small entries' A/B in the reference run's binary: `summary.py [DIR]`
(default: ab/ beside this file) reads the eight `host bench` outputs
`ab-{on,off}-{1,2}-{warm,cold}.txt` (the small routes and entries on, and off
with LAB_SMALL_ROUTE=off, two interleaved rounds) and prints, per size, each
sum's median with them on over its median with them off, and the
deterministic sum over the fastest of the lab's other sums with them on.
Ratios of medians within one program's run; nothing here is a timing test."""
import sys
from pathlib import Path

OTHERS = ["global atomic", "shared atomic", "tree + atomic", "warp shuffle", "bandwidth"]
SHOWN = ["deterministic", "correctly rounded", "warp shuffle", "bandwidth"]


def medians(path):
    """(n, kernel) -> median ms, from a bench table (a trailing * marks a small route or entry)."""
    out = {}
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 3 and cells[0].isdigit():
            out[(int(cells[0]), cells[1].rstrip("*"))] = float(cells[2])
    return out


def main():
    ab = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "ab"
    print("on / off per sum (round 1, round 2); det/fastest with them on (round 1, round 2)")
    for cache in ("warm", "cold"):
        runs = [(medians(ab / f"ab-on-{r}-{cache}.txt"), medians(ab / f"ab-off-{r}-{cache}.txt")) for r in (1, 2)]
        sizes = sorted({n for n, _ in runs[0][0]})
        print(f"{cache}:")
        print("       n | " + " | ".join(f"{k:>17}" for k in SHOWN) + " | det/fastest")
        for n in sizes:
            cells = []
            for kernel in SHOWN:
                ratios = [on[(n, kernel)] / off[(n, kernel)] for on, off in runs]
                cells.append(" ".join(f"{r:.2f}" for r in ratios).rjust(17))
            det = [on[(n, "deterministic")] / min(on[(n, k)] for k in OTHERS if (n, k) in on) for on, _ in runs]
            print(f"{n:>8} | " + " | ".join(cells) + " | " + " ".join(f"{r:.2f}" for r in det))


main()
