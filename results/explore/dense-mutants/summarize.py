"""Prints ../dense-mutants.txt from the two JSON files beside it:
python3 results/explore/dense-mutants/summarize.py > results/explore/dense-mutants.txt"""
import json
from pathlib import Path

HERE = Path(__file__).parent
STRIDES = (64, 4)

runs = {}
for stride in STRIDES:
    record = json.loads((HERE / f"mutants-stride-{stride}.json").read_text())
    for row in record["results"]["rows"]:
        if row.get("counts") is None:
            continue
        m = row["mutant"]
        runs.setdefault((m["kernel"], m["mutation"]), {})[stride] = row
log = (HERE / "run.log").read_text().splitlines()
print("# Exploratory mutation run (issue 23), not the reference run: `host litmus --mutants --test mp,lb,wrc")
print("# --placement inter-block --preset tuned-wrc --location-stride S --seconds 0.2` for S = 64 (the default)")
print(f"# and 4 (eight instances a 128-byte line), host built at 7718130, on one {log[0]}, 2026-12-02;")
print("# the script is dense-mutants/run.sh. Per mutant: instances run, or the instances and seconds to the first")
print("# weak outcome where it was killed. A survivor's bound is the rule of three: fewer than 3 / instances per")
print("# instance, at 95%. Made by dense-mutants/summarize.py.")
print()
for stride in STRIDES:
    killed = sum(v[stride]["killed_after"] is not None for v in runs.values())
    print(f"killed at stride {stride}: {killed} of {len(runs)}")
either = sum(any(r["killed_after"] is not None for r in v.values()) for v in runs.values())
print(f"killed at either: {either} of {len(runs)}")
print()
print(f"{'mutant':<24} {'mutation':<62} " + " ".join(f"{'stride ' + str(s):>24}" for s in STRIDES))
for (kernel, mutation), by in sorted(runs.items()):
    cells = []
    for s in STRIDES:
        r = by[s]
        if r["killed_after"] is not None:
            instances, seconds = r["killed_after"]
            cells.append(f"killed: {instances:.2e}, {seconds:.2f} s")
        else:
            cells.append(f"0 in {r['counts']['instances']:.2e}")
    print(f"{kernel:<24} {mutation:<62} " + " ".join(f"{c:>24}" for c in cells))
