#!/usr/bin/env python3
"""Issue 37's targets, read from a reference run: `targets.py [RUN]` (default
results/h200) prints, for every size, the ratios the issue names, from the
run's bench ladder (warm, block 256) and from `nvcc-compare.json` (the lab's
bench warm and cold and CUB's default DeviceReduce::Sum, one run each).
Ratios of medians within one program's run; nothing here is a timing test.

- det / fastest: the deterministic sum's time over the fastest of the lab's
  non-deterministic sums at that size (target: at most 1.10).
- CR bw-share: the bandwidth kernel's time over the correctly rounded sum's,
  its share of the bandwidth kernel's throughput (target: 0.85 from 2^20, 0.95
  from 2^26).
- CR / CUB, fastest / CUB: the correctly rounded sum's and the fastest lab
  sum's time over CUB's default (target: at most 1.00, cold included)."""
import json, statistics, sys
from pathlib import Path

NON_DETERMINISTIC = ["global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle", "bandwidth"]

def ladder(run):
    rows = json.loads((run / "bench-ladder.json").read_text())["results"]["rows"]
    return {row["sums"]["n"]: {m["kernel"]: statistics.median(m["times_ms"]) for m in row["sums"]["measurements"]}
            for row in rows}

def nvcc(run):
    cub = json.loads((run / "nvcc-compare.json").read_text())["cub"]
    lab = {}
    for cache in ("warm", "cold"):
        for kernel, times in cub[cache][0].items():
            for n, ms in times.items():
                lab.setdefault((cache, int(n)), {})[kernel] = ms
    default = {int(n): t for n, t in cub["cub"]["times"]["default"].items()}
    return lab, default

def fastest(times):
    return min(times[k] for k in NON_DETERMINISTIC if k in times)

def main(run):
    rows = ladder(run)
    lab, cub = nvcc(run)
    print(f"{run}: issue 37's ratios (ladder = bench-ladder.json, warm; nvcc = nvcc-compare.json)")
    print(f"{'n':>11} | det/fastest ladder, nvcc warm, cold | CR bw-share ladder, nvcc warm, cold"
          f" | CR/CUB warm, cold | fastest/CUB warm, cold")
    for n in sorted(rows):
        t = rows[n]
        w, c = lab.get(("warm", n)), lab.get(("cold", n))
        cw, cc = cub.get(n, (None, None))
        det = [t["deterministic"] / fastest(t)] + [x["deterministic"] / fastest(x) for x in (w, c) if x]
        share = [t["bandwidth"] / t["correctly_rounded"]] + [x["bandwidth"] / x["correctly_rounded"] for x in (w, c) if x]
        vs = [(w["correctly_rounded"] / cw) if w and cw else None, (c["correctly_rounded"] / cc) if c and cc else None]
        fv = [(fastest(w) / cw) if w and cw else None, (fastest(c) / cc) if c and cc else None]
        f = lambda xs: " ".join("-" if x is None else f"{x:.2f}" for x in xs)
        print(f"{n:>11} | {f(det):>35} | {f(share):>34} | {f(vs):>17} | {f(fv):>22}")

if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "results/h200"))
