"""Prints ../cub-profile.txt from the Nsight Compute CSV files beside it:
python3 results/explore/cub-profile/summarize.py > results/explore/cub-profile.txt"""
import csv, io, statistics
from pathlib import Path

HERE = Path(__file__).parent
SIZES = (268435456, 1073741824)
METRICS = [
    ("gpu__time_duration.sum", "time us", 1e-3, "{:9.1f}"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM %", 1, "{:7.2f}"),
    ("launch__grid_size", "grid", 1, "{:6.0f}"),
    ("launch__block_size", "block", 1, "{:5.0f}"),
    ("launch__registers_per_thread", "regs", 1, "{:4.0f}"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "warps %", 1, "{:7.1f}"),
    ("sm__cycles_active.min", "SM min/elapsed", None, "{:14.3f}"),
    ("sm__cycles_active.avg", "SM avg/elapsed", None, "{:14.3f}"),
]


def launches(path):
    """Each profiled launch, in order: (kernel name, {metric: value})."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    out = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        out.setdefault(int(row["ID"]), (row["Kernel Name"], {}))[1][row["Metric Name"]] = float(
            row["Metric Value"].replace(",", ""))
    return [out[i] for i in sorted(out)]


def mode_of(name, seen_two_pass):
    """cub_sum.cu's order: the default (two-phase API, warm then cold), then through the environment API
    not_guaranteed, run_to_run and gpu_to_gpu, each held and as called, warm and cold."""
    if name.startswith("void DeterministicDeviceReduce"):
        return "gpu_to_gpu"
    if ", 0>, 0, const float *" in name:
        return "not_guaranteed"
    return "default (two-phase)" if seen_two_pass < 2 else "run_to_run"


def row(label, group):
    cells = []
    for metric, _, scale, fmt in METRICS:
        if scale is None:
            value = statistics.median(m[metric] / m["gpc__cycles_elapsed.max"] for m in group)
        else:
            value = statistics.median(m[metric] for m in group) * scale
        cells.append(fmt.format(value))
    return f"  {label:<34}" + " ".join(cells) + f"   ({len(group)} launches)"


print("# Exploratory profile (issue 21), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-02. Not the reference")
print("# run. Nsight Compute (--cache-control none --clock-control none, a few metrics) on cub_sum.cu built by nvcc 13.0")
print("# -O3 -arch=sm_90 against the CCCL 3.5 headers, one timed launch per mode and cache state, and on `host bench`")
print("# (its bench and kernels as on main since the reference run, one launch); the script is cub-profile/run.sh. Each row:")
print("# the first-pass (or only) kernel of a")
print("# mode, medians over its launches; CUB's second, single-block kernel is left out. SM min/elapsed and avg/elapsed:")
print("# the least busy and the average SM's active cycles over the launch's elapsed cycles. Made by")
print("# cub-profile/summarize.py from the CSV files beside it.")
header = "  " + " " * 34 + " ".join(f"{label:>{len(fmt.format(0))}}" for _, label, _, fmt in METRICS)
for n in SIZES:
    print()
    print(f"## n = {n}")
    print(header)
    groups, two_pass = {}, 0
    for name, metrics in launches(HERE / f"cub-{n}.csv"):
        if "SingleTile" in name:
            continue
        mode = mode_of(name, two_pass)
        two_pass += mode.startswith("default")
        groups.setdefault(f"CUB {mode}", []).append(metrics)
    for name, metrics in launches(HERE / f"lab-{n}.csv"):
        groups.setdefault(f"lab {name}", []).append(metrics)
    for label, group in groups.items():
        print(row(label, group))
