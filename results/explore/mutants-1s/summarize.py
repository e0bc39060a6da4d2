"""Prints ../mutants-1s.txt from the two JSON files beside it:
python3 results/explore/mutants-1s/summarize.py > results/explore/mutants-1s.txt"""
import json
from pathlib import Path

HERE = Path(__file__).parent
PRESETS = ("stale-l1", "tuned-mp")

runs = {}
for preset in PRESETS:
    record = json.loads((HERE / f"mutants-{preset}.json").read_text())
    for row in record["results"]["rows"]:
        if row.get("counts") is None:
            continue
        m = row["mutant"]
        runs.setdefault((m["kernel"], m["mutation"]), {})[preset] = row
print("# Exploratory mutation run (issue 23), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-01.")
print("# Not the reference run: `host litmus --mutants --test mp,lb,wrc --placement inter-block --preset P")
print("# --seconds 1` for P in stale-l1 and tuned-mp (five times the reference run's 0.2 s a mutant), by a")
print("# host built at c87c10e (its litmus kernels are main's). Per mutant: instances run, or the instances")
print("# and seconds to the first weak outcome where it was killed. A survivor's bound is the rule of three:")
print("# fewer than 3 / instances per instance, at 95%. Made by mutants-1s/summarize.py.")
print()
killed = sum(any(r["killed_after"] is not None for r in v.values()) for v in runs.values())
print(f"killed in either environment: {killed} of {len(runs)}")
print()
print(f"{'mutant':<28} {'mutation':<66} " + " ".join(f"{p:>24}" for p in PRESETS))
for (kernel, mutation), by in sorted(runs.items()):
    cells = []
    for p in PRESETS:
        r = by[p]
        n = r["counts"]["instances"]
        if r["killed_after"] is not None:
            instances, seconds = r["killed_after"]
            cells.append(f"killed: {instances:.2e}, {seconds:.2f} s")
        else:
            cells.append(f"0 in {n:.2e}")
    print(f"{kernel:<28} {mutation:<66} " + " ".join(f"{c:>24}" for c in cells))
