"""Prints ../dense-locations.txt from the JSON files and run.log beside it:
python3 results/explore/dense-locations/summarize.py > results/explore/dense-locations.txt"""
import json
from pathlib import Path

HERE = Path(__file__).parent
# The weak outcome's histogram bin, register r in bit r (layout::litmus::Test::weak).
WEAK_BIN = {"wrc": 0b011, "iriw": 0b0101, "isa2": 0b011, "rwc": 0b001}
RUNS = [("stride-64", "64, random"), ("stride-16", "16, random"), ("stride-8", "8, random"),
        ("stride-4", "4, random"), ("stride-4-same-line", "4, same-line")]


def rows(name):
    record = json.loads((HERE / f"{name}.json").read_text())["results"]
    out = {}
    for r in record["rows"]:
        assert r["allowed"], f"{name}: {r['kernel']} is a forbidden row"
        c = r["counts"]
        weak = c["histogram"][WEAK_BIN[r["kernel"].split("_")[0]]]
        out[r["kernel"]] = (weak, c["instances"], c["seconds"])
    return out


def rate(weak, instances):
    return f"{weak / instances * 1e6:.3g}" if weak else f"0 (<{3 / instances * 1e6:.2g})"


log = (HERE / "run.log").read_text().splitlines()
runs = [(label, rows(name)) for name, label in RUNS]
print("# Exploratory run (issue 23), not the reference run: `host litmus --test wrc,iriw,isa2,rwc --variant")
print("# relaxed-gpu,fence-acq-rel-cta --placement inter-block --preset tuned-wrc --location-stride S --seconds 1`,")
print(f"# host built at 7718130, on one {log[0]}, 2026-12-02; the script is dense-locations/run.sh, its")
print("# output dense-locations/run.log. Weak outcomes per million instances across blocks, by location stride")
print("# (words per instance's slot) and distance; every row shown is one the model allows (the script checks).")
print("# A zero is shown with its rule-of-three bound. Made by dense-locations/summarize.py.")
print()
print(f"{'kernel':>24}" + "".join(f"{label:>16}" for label, _ in runs))
for kernel in runs[0][1]:
    print(f"{kernel:>24}" + "".join(f"{rate(*r[kernel][:2]):>16}" for _, r in runs))
print()
print("weak outcomes per second:")
for kernel in runs[0][1]:
    print(f"{kernel:>24}" + "".join(f"{r[kernel][0] / r[kernel][2]:>16.0f}" for _, r in runs))
print()
print("instances per row (millions):")
for kernel in runs[0][1]:
    print(f"{kernel:>24}" + "".join(f"{r[kernel][1] / 1e6:>16.0f}" for _, r in runs))
print()
print("The densest stride under compute-sanitizer's memcheck (run.log):")
for line in log[-2:]:
    print("   " + line.strip())
