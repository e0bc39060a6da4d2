#!/usr/bin/env python3
"""Nsight Compute's counters for the lab's three memory-limit sums, from
`profile.sh`'s two files (each the program's own output, then ncu's CSV):
`summary.py [DIR]` (default: this file's folder) prints one row per kernel and
size, each figure the median of the kernel's profiled launches there (one
warm-up and one timed launch of `host bench`; one launch of each of
`host accuracy`'s runs). Times are ncu's, with each launch replayed and
serialized: read them as ratios, not as the bench's times."""
import csv, statistics, sys
from collections import defaultdict
from pathlib import Path

def launches(path):
    """Every profiled launch in `path`: (kernel, n, {metric: value})."""
    lines = path.read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    by_id = defaultdict(dict)
    names = {}
    for row in csv.DictReader(lines[header:]):
        by_id[row["ID"]][row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
        names[row["ID"]] = row["Kernel Name"]
    for launch, metrics in by_id.items():
        # Every launch reads each float once: 4n bytes, to the nearest float.
        n = round(metrics["dram__bytes_read.sum"] / 4 / 2**20) * 2**20
        yield names[launch], n, metrics

def table(title, path):
    groups = defaultdict(list)
    for kernel, n, metrics in launches(path):
        groups[(n, kernel)].append(metrics)
    print(title)
    print(f"{'n':>10} {'kernel':<22} {'µs':>7} {'DRAM %':>7} {'inst/float':>10} {'regs':>5} {'blocks':>6} "
          f"{'warps %':>7} {'SM min/max':>10}")
    for (n, kernel), runs in sorted(groups.items()):
        med = lambda key: statistics.median(m[key] for m in runs)
        print(f"{n:>10} {kernel:<22} {med('gpu__time_duration.sum') / 1000:>7.1f} "
              f"{med('dram__throughput.avg.pct_of_peak_sustained_elapsed'):>7.1f} "
              f"{32 * med('smsp__inst_executed.sum') / n:>10.2f} "
              f"{med('launch__registers_per_thread'):>5.0f} {med('launch__grid_size'):>6.0f} "
              f"{med('sm__warps_active.avg.pct_of_peak_sustained_active'):>7.1f} "
              f"{med('sm__cycles_active.min') / med('sm__cycles_active.max'):>10.2f}")

folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
print("µs: ncu's gpu__time_duration; DRAM %: of peak sustained, over the launch; inst/float: warp")
print("instructions x 32 / n (thread instructions per float); warps %: achieved occupancy;")
print("SM min/max: the least busy SM's active cycles over the busiest's.\n")
table("host bench's sparse input (every addition exact):", folder / "bench-profile.csv")
print()
table("host accuracy --spread wide (many of the f64 filter's checks fail):", folder / "wide-profile.csv")
