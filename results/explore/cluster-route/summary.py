#!/usr/bin/env python3
"""Summarises `ab/`: `host bench --sizes 4096,16384,32768,65536` (warm and
`--cold`) with the small routes on and with `LAB_SMALL_ROUTE=off`, two rounds,
interleaved, in one call on the H200 of the run in `run/`. Prints, per size and
cache, the deterministic sum's median with the cluster route (on) and with the
handoff route (off) in each round, on / off, and each one's ratio to the
fastest non-deterministic sum of the same bench. The bench prints medians in
ms to four decimals (0.1 us), so a ratio here moves by about 0.02 per step."""
import re, statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
NON_DETERMINISTIC = ["global atomic", "shared atomic", "tree + atomic", "warp shuffle", "bandwidth"]
ROW = re.compile(r"^\s*(\d+)\s*\|\s*([a-z +]+?)\*?\s*\|\s*([0-9.]+)\s*\|")

def medians(path):
    rows = {}
    for line in path.read_text().splitlines():
        if m := ROW.match(line):
            rows.setdefault(int(m[1]), {})[m[2]] = float(m[3]) * 1000
    return rows

print("# deterministic sum, median us; on = cluster route, off = handoff route (LAB_SMALL_ROUTE=off)")
print(f"{'n':>6} {'cache':5} | {'on r1':>6} {'on r2':>6} | {'off r1':>6} {'off r2':>6} | on/off r1, r2 | det/fastest: r1 on, off; r2 on, off")
ratios = []
for cache in ("warm", "cold"):
    runs = {(route, r): medians(HERE / "ab" / f"ab-{route}-{r}-{cache}.txt") for route in ("on", "off") for r in (1, 2)}
    for n in sorted(runs[("on", 1)]):
        det = {k: v[n]["deterministic"] for k, v in runs.items()}
        fast = {k: min(v[n][name] for name in NON_DETERMINISTIC if name in v[n]) for k, v in runs.items()}
        on_off = [det[("on", r)] / det[("off", r)] for r in (1, 2)]
        if n > 8192:
            ratios += on_off
        rel = "; ".join(f"{det[('on', r)] / fast[('on', r)]:.2f}, {det[('off', r)] / fast[('off', r)]:.2f}" for r in (1, 2))
        print(f"{n:>6} {cache:5} | {det[('on', 1)]:6.1f} {det[('on', 2)]:6.1f} | {det[('off', 1)]:6.1f} {det[('off', 2)]:6.1f} |"
              f" {on_off[0]:.2f}, {on_off[1]:.2f}    | {rel}")
print(f"on/off at 16,384 to 65,536, warm and cold: {min(ratios):.2f} to {max(ratios):.2f} "
      f"(median {statistics.median(ratios):.2f}, {len(ratios)} ratios)")
