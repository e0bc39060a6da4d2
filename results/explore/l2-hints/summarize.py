"""Prints ../l2-hints.txt from the JSON files in json/ and CUB's load opcodes in cub-ldg.txt:
python3 results/explore/l2-hints/summarize.py > results/explore/l2-hints.txt"""
import json, statistics
from pathlib import Path

HERE = Path(__file__).parent
VARIANTS = ("ctl", "l2_128", "l2_256")
KERNELS = ("bandwidth", "deterministic", "correctly_rounded")


def medians(name):
    """(n, kernel) -> (median time in microseconds, whether every sum was the reference's bits)."""
    rows = json.loads((HERE / "json" / f"{name}.json").read_text())["results"]["rows"]
    return {(r["sums"]["n"], m["kernel"]): (statistics.median(m["times_ms"]) * 1000,
                                           all(s == r["sums"]["reference"] for s in m["sums"]))
            for r in rows for m in r["sums"]["measurements"]}


def pair(files, n, kernel):
    cells = [f[(n, kernel)] for f in files]
    assert all(ok for _, ok in cells), f"a sum of {kernel} at {n} differs from the reference"
    return " / ".join(f"{t:.2f}" for t, _ in cells)


print("# Exploratory run (issue 21), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-02. Not the reference")
print("# run: main's host (17ff5ad) with three PTX files made from main's sm_70 module by l2-hints/make-variants.sh,")
print("# through --ptx, interleaved, warm and cold. Medians in microseconds of one `host bench` each (10 timed launches")
print("# after 3 warm-ups); \"1 / 2\" are two rounds. Every sum shown equals the reference's bits (the script checks).")
print("# Block 256. The run's script is l2-hints/run.sh.")
print("#   ctl     main's kernels, the header raised to PTX 7.8 / sm_90 (the same SASS for every sum kernel)")
print("#   l2_128  every 128-bit input load with the L2 prefetch-size hint .L2::128B (SASS LDG.E.LTC128B.128.CONSTANT)")
print("#   l2_256  the same with .L2::256B (SASS LDG.E.LTC256B.128.CONSTANT)")
print()
print("## CUB's load instructions: cub_sum.cu built by nvcc 13.0 -O3 -arch=sm_90 against the CCCL 3.5 headers, every")
print("## LDG opcode in its SASS with its count (no prefetch-size hint on any)")
print((HERE / "cub-ldg.txt").read_text().rstrip())
print()
for mode in ("warm", "cold"):
    files = {v: [medians(f"{mode}-{v}-{i}") for i in (1, 2)] for v in VARIANTS}
    sizes = sorted({n for n, _ in files["ctl"][0]})
    for kernel in KERNELS:
        print(f"## {mode}: {kernel}")
        print(f"{'n':>11}  " + "  ".join(f"{v:>17}" for v in VARIANTS))
        for n in sizes:
            print(f"{n:>11}  " + "  ".join(f"{pair(files[v], n, kernel):>17}" for v in VARIANTS))
        print()
