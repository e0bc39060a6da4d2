"""Ratios from run.sh's benches: for each size, cache state and route (off,
on), the median time of the deterministic sum over the fastest of the
lab's non-deterministic sums (the page's three, warp shuffle, bandwidth),
the correctly rounded sum's time over the bandwidth kernel's (its
throughput ratio is the inverse), and each reproducible sum's time with
the route on over off. Medians of each run's timed launches; the two
rounds are printed side by side. Usage: ratios.py DIR"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

FAST = {"global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle", "bandwidth"}
med = defaultdict(dict)  # (cache, route, round) -> n -> kernel -> median ms
for path in sorted(Path(sys.argv[1]).glob("bench-*.json")):
    _, cache, route, rnd = path.stem.split("-")
    record = json.loads(path.read_text())["results"]
    for row in record["rows"]:
        sums = row["sums"]
        med[(cache, route, rnd)][sums["n"]] = {
            m["kernel"]: statistics.median(m["times_ms"]) for m in sums["measurements"]
        }

sizes = sorted({n for runs in med.values() for n in runs})
rounds = sorted({k[2] for k in med})
print("n | cache | det/fastest off | det/fastest on | cr/bandwidth off | cr/bandwidth on | det on/off | cr on/off")
for cache in ("warm", "cold"):
    for n in sizes:
        cells = defaultdict(list)
        for rnd in rounds:
            off, on = med.get((cache, "off", rnd), {}).get(n), med.get((cache, "on", rnd), {}).get(n)
            if not off or not on:
                continue
            for name, t in (("off", off), ("on", on)):
                fastest = min(v for k, v in t.items() if k in FAST)
                cells[f"det {name}"].append(t["deterministic"] / fastest)
                cells[f"cr {name}"].append(t["correctly_rounded"] / t["bandwidth"])
            cells["det"].append(on["deterministic"] / off["deterministic"])
            cells["cr"].append(on["correctly_rounded"] / off["correctly_rounded"])
        fmt = lambda xs: " ".join(f"{x:.2f}" for x in xs)
        print(f"{n} | {cache} | " + " | ".join(fmt(cells[c]) for c in
              ("det off", "det on", "cr off", "cr on", "det", "cr")))
