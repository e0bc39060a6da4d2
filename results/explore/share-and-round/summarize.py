"""Prints ../share-and-round.txt from the JSON files in json/:
python3 results/explore/share-and-round/summarize.py > results/explore/share-and-round.txt"""
import json, statistics
from pathlib import Path

HERE = Path(__file__).parent


def medians(name):
    """(n, kernel) -> (median time in microseconds, whether every sum was the reference's bits)."""
    rows = json.loads((HERE / "json" / f"{name}.json").read_text())["results"]["rows"]
    return {(r["sums"]["n"], m["kernel"]): (statistics.median(m["times_ms"]) * 1000,
                                           all(s == r["sums"]["reference"] for s in m["sums"]))
            for r in rows for m in r["sums"]["measurements"]}


def pair(files, n, kernel, digits):
    cells = [f[(n, kernel)] for f in files]
    assert all(ok for _, ok in cells), f"a sum of {kernel} at {n} differs from the reference"
    return " / ".join(f"{t:.{digits}f}" for t, _ in cells)


print("# Exploratory run (issue 21), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-02. Not the reference")
print("# run: main's host (09829a6) with each variant's PTX through --ptx (the patches in share-and-round/variants, each")
print("# against 09829a6), interleaved with main's own PTX, warm and cold. Medians in microseconds of one `host bench`")
print("# each (10 timed launches after 3 warm-ups); \"1 / 2\" are two rounds. Every sum shown equals the reference's")
print("# bits (the script checks). Block 256. Made by share-and-round/summarize.py; the run's script is share-and-round/run.sh.")
print("#   det-a    the deterministic sum's warp loop takes a contiguous range of whole chunks per warp (even share)")
print("#   det-b    the same per block, the block's warps interleaved over its range")
print("#   bw-even  the bandwidth kernel with a contiguous range of quads per block (CUB's even share)")
print("#   cr-fastround  the correctly rounded sum's finish with exact::round replaced by a plain f64 conversion")
print("#            of the limbs (wrong in general, right on bench's sparse input): what the rounding costs")
print()
for mode in ("warm", "cold"):
    print(f"## {mode}: the deterministic and bandwidth kernels, each variant's bench (its other kernels are main's)")
    files = {v: [medians(f"big-{v}-{mode}-{i}") for i in (1, 2)] for v in ("base", "det-a", "det-b", "bw-even")}
    print(f"{'n':>11}  {'det (main)':>17}  {'det-a':>17}  {'det-b':>17}  {'bw (main)':>17}  {'bw-even':>17}")
    for n in (268435456, 1073741824, 2147483648):
        print(f"{n:>11}  {pair(files['base'], n, 'deterministic', 1):>17}  {pair(files['det-a'], n, 'deterministic', 1):>17}"
              f"  {pair(files['det-b'], n, 'deterministic', 1):>17}  {pair(files['base'], n, 'bandwidth', 1):>17}"
              f"  {pair(files['bw-even'], n, 'bandwidth', 1):>17}")
    print()
for mode in ("warm", "cold"):
    print(f"## {mode}: the correctly rounded sum with and without its rounding, and the bandwidth kernel")
    files = {v: [medians(f"mid-{v}-{mode}-{i}") for i in (1, 2)] for v in ("base", "cr-fastround")}
    print(f"{'n':>11}  {'cr (main)':>13}  {'cr-fastround':>13}  {'bw (main)':>13}")
    for n in (65536, 1048576, 4194304, 16777216):
        print(f"{n:>11}  {pair(files['base'], n, 'correctly_rounded', 2):>13}  "
              f"{pair(files['cr-fastround'], n, 'correctly_rounded', 2):>13}  {pair(files['base'], n, 'bandwidth', 2):>13}")
    print()
