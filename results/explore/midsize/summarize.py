"""Prints ../midsize.txt from the JSON and Nsight Compute files beside it:
python3 results/explore/midsize/summarize.py > results/explore/midsize.txt"""
import json, re, statistics
from pathlib import Path

HERE = Path(__file__).parent


def medians(path):
    """(n, kernel) -> median time in microseconds, from one `host bench` JSON."""
    rows = json.loads(path.read_text())["results"]["rows"]
    return {(r["sums"]["n"], m["kernel"]): statistics.median(m["times_ms"]) * 1000
            for r in rows for m in r["sums"]["measurements"]}


def rounds(folder, variant, mode):
    return [medians(HERE / folder / f"{variant}-{mode}-{i}.json") for i in (1, 2)]


print("# Exploratory runs on the correctly rounded sum's middle sizes (issue 21), one NVIDIA H200")
print("# (driver 580.159.04, CUDA 13.0), 2026-12-01. Not the reference run. Medians in microseconds of one")
print("# `host bench` each (10 timed launches after 3 warm-ups); \"1 / 2\" are two rounds, which interleaved")
print("# the builds. Made by midsize/summarize.py from the files in midsize/.")
print()
print("## 1. Nsight Compute (`ncu --set full --clock-control none`, one launch each, files in midsize/profile):")
print("##    GPU cycles from the kernel's start to its end, and the cycles an average SM had a warp resident.")
print(f"{'n':>10} {'kernel':>18} {'elapsed':>9} {'SM active':>10} {'duration us':>12}")
for n in (65536, 1048576, 4194304, 268435456):
    text = (HERE / "profile" / f"details-{n}.txt").read_text()
    for block in re.split(r"\n  (?=sum_)", text):
        name = re.match(r"\s*(sum_\w+)", block)
        if not name:
            continue
        def metric(label):
            return re.search(rf"{label}\s+\S+\s+([\d,\.]+)", block).group(1)
        print(f"{n:>10} {name.group(1)[4:]:>18} {metric('Elapsed Cycles'):>9} {metric('SM Active Cycles'):>10} "
              f"{metric('Duration'):>12}")
print()
print("## 2. A start ticket and slots (branch crstart, c87c10e, recorded by 77ca2fd): every block's exact f64")
print("##    sum in a slot of its own, no atomic and no fence; the block that drew the last start ticket reads")
print("##    the slots with all its threads, adds them in checked f64 and rounds once. Against main's kernel")
print("##    (--ptx), same host. Block 256; bandwidth is the median over both builds' benches.")
for mode in ("warm", "cold"):
    start, base = rounds("start", "start", mode), rounds("start", "base", mode)
    print(f"{'n ' + mode:>12}  {'start':>15}  {'main':>15}  {'bandwidth':>9}  {'% of bw: start / main':>22}")
    for n in sorted({n for n, _ in start[0]}):
        s = [r[(n, "correctly_rounded")] for r in start]
        b = [r[(n, "correctly_rounded")] for r in base]
        bw = statistics.median([r[(n, "bandwidth")] for r in start + base])
        print(f"{n:>12}  {s[0]:6.2f} / {s[1]:6.2f}  {b[0]:6.2f} / {b[1]:6.2f}  {bw:9.2f}  "
              f"{100 * bw / statistics.mean(s):9.1f} / {100 * bw / statistics.mean(b):5.1f}")
for threads in (64, 1024):
    start, base = medians(HERE / "start" / f"start-b{threads}.json"), medians(HERE / "start" / f"base-b{threads}.json")
    print(f"{'n, block ' + str(threads):>16}  {'start':>7}  {'main':>7}  {'bandwidth':>9}")
    for n in sorted({n for n, _ in start}):
        print(f"{n:>16}  {start[(n, 'correctly_rounded')]:7.2f}  {base[(n, 'correctly_rounded')]:7.2f}  "
              f"{start[(n, 'bandwidth')]:9.2f}")
print()
print("## 3. Diagnostic variants of main's kernel, for timing only (each is wrong on arrays whose f64 sums are")
print("##    inexact, and exact on bench's sparse input): nocheck drops the Fast2Sum check but keeps the warp")
print("##    vote per quad (62 registers); novote-check keeps the check and drops the vote, so the slow path is")
print("##    dead code (44 registers); novote drops both (44 registers). Block 256.")
variants = ("base", "nocheck", "novote-check", "novote")
for mode in ("warm", "cold"):
    runs = {v: rounds("diagnostic", v, mode) for v in variants}
    print(f"{'n ' + mode:>12}" + "".join(f"  {v:>15}" for v in ("main",) + variants[1:]) + f"  {'bandwidth':>9}")
    for n in sorted({n for n, _ in runs["base"][0]}):
        cells = "".join(f"  {r[0][(n, 'correctly_rounded')]:6.2f} / {r[1][(n, 'correctly_rounded')]:6.2f}"
                        for r in runs.values())
        bw = statistics.median([r[(n, "bandwidth")] for rs in runs.values() for r in rs])
        print(f"{n:>12}{cells}  {bw:9.2f}")
