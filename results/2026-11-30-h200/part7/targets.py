"""Part 7's targets, from a run's own files (run-part7k.sh, run-part7o.sh).
Run in the run's folder, naming the run:

    python3 ../part7/targets.py "final run (commit 815e5e1)" [WHO SUFFIX]

where a run that timed several builds names the one to report: its bench
files are bench-WHO-*.json (default `after`) and its other files end in
SUFFIX (default none: nvcc-compare-cub.txt, bench-to-2e31.txt, ...). It
writes targets.md: the deterministic kernel against the fastest atomic kernel
(mean of the two rounds' medians of bench-after-*.json), against CUB
(nvcc-compare-cub.txt) and against the limit (bench-to-2e31.txt,
bench-cold-to-2e31.txt)."""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "part7"))
from bench_json import medians  # noqa: E402

WHO = sys.argv[2] if len(sys.argv) > 2 else "after"
SUFFIX = sys.argv[3] if len(sys.argv) > 3 else ""

ATOMIC = ["global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle", "bandwidth"]


def mean_medians(temp):
    """(kernel, n) -> mean over the two rounds of the median time, in µs."""
    rounds = [medians(f"bench-{WHO}-{temp}-{rnd}.json") for rnd in (1, 2)]
    return {k: (rounds[0][k] + rounds[1][k]) / 2 for k in rounds[0]}


def cub():
    """n -> (lab warm, CUB warm, warm ratio, lab cold, CUB cold, cold ratio) for the
    deterministic kernel: times in µs, ratios as the table prints them (from the
    unrounded medians)."""
    out = {}
    for line in open(f"nvcc-compare-cub{SUFFIX}.txt"):
        f = line.split()
        if len(f) == 8 and f[0] == "deterministic":
            lw, cw, rw, lc, cc, rc = (float(x) for x in f[2:])
            out[int(f[1])] = (lw * 1000, cw * 1000, rw, lc * 1000, cc * 1000, rc)
    return out


def limits(path):
    """(kernel, n) -> % of limit."""
    out = {}
    for line in open(path):
        m = re.match(r"\s*(\d+)\s*\|\s*(\w+)\s*\|.*\|\s*([\d.]+)\s*\|\s*exact", line)
        if m:
            out[(m.group(2), int(m.group(1)))] = float(m.group(3))
    return out


def limit_ms(record, n):
    """The limit column of a bench JSON record at `n`, in ms: the row's median
    empty launch plus 4n bytes at the DRAM peak (the driver's memory clock and
    bus width, two transfers a clock), as `host bench` computes it."""
    device = record["device"]
    peak = device["memory_clock_khz"] * 1e3 * 2 * device["memory_bus_bits"] / 8  # bytes/s
    row = next(r for r in record["results"]["rows"] if r["sums"]["n"] == n)
    return statistics.median(row["empty_ms"]) + 4 * n / peak * 1e3


lines = [f"# Part 7's targets, {sys.argv[1]}, H200, 2026-11-30", ""]
lines += ["## Deterministic against the fastest atomic kernel (target: at most 1.10)", ""]
lines += ["| n | warm: det / fastest (µs) | ratio | cold: det / fastest (µs) | ratio |", "|---|---|---|---|---|"]
warm, cold = mean_medians("warm"), mean_medians("cold")
for n in sorted({n for _, n in warm}):
    cells = []
    for t in (warm, cold):
        fastest = min((t[(k, n)], k) for k in ATOMIC if (k, n) in t)
        cells += [f"{t[('deterministic', n)]:.2f} / {fastest[0]:.2f} ({fastest[1]})",
                  f"{t[('deterministic', n)] / fastest[0]:.2f}"]
    lines.append(f"| {n:,} | " + " | ".join(cells) + " |")
lines += ["", "## Deterministic against CUB DeviceReduce::Sum (target: at most 1.00)", ""]
lines += ["| n | warm (µs) | ratio | cold (µs) | ratio |", "|---|---|---|---|---|"]
for n, (lw, cw, rw, lc, cc, rc) in sorted(cub().items()):
    lines.append(f"| {n:,} | {lw:.1f} / {cw:.1f} | {rw:.2f} | {lc:.1f} / {cc:.1f} | {rc:.2f} |")
lines += ["", "## Percent of the limit (targets: 90 at 2^28 and above, 75 at 2^24 cold)", ""]
lines += ["| n | bandwidth warm | deterministic warm | bandwidth cold | deterministic cold |", "|---|---|---|---|---|"]
lw, lc = limits(f"bench-to-2e31{SUFFIX}.txt"), limits(f"bench-cold-to-2e31{SUFFIX}.txt")
for n in sorted({n for _, n in lw}):
    lines.append(f"| {n:,} | {lw[('bandwidth', n)]} | {lw[('deterministic', n)]} | "
                 f"{lc[('bandwidth', n)]} | {lc[('deterministic', n)]} |")
lines += ["", f"## Time per float, warm, from bench-to-2e31{SUFFIX}.json (picoseconds; limit: the same formula)", ""]
lines += ["| n | bandwidth | deterministic | correctly rounded | limit |", "|---|---|---|---|---|"]
record = json.load(open(f"bench-to-2e31{SUFFIX}.json"))
for row in record["results"]["rows"]:
    n = row["sums"]["n"]
    t = {m["kernel"]: statistics.median(m["times_ms"]) for m in row["sums"]["measurements"]}
    limit = limit_ms(record, n)
    cells = [f"{t[k] * 1e9 / n:.2f}" for k in ("bandwidth", "deterministic", "correctly_rounded")]
    lines.append(f"| 2^{n.bit_length() - 1} | " + " | ".join(cells) + f" | {limit * 1e9 / n:.2f} |")
open("targets.md", "w").write("\n".join(lines) + "\n")
