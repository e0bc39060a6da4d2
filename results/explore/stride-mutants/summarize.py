"""Prints ../stride-mutants.txt from the JSON files beside it and the reference run's two mutation files:
python3 results/explore/stride-mutants/summarize.py > results/explore/stride-mutants.txt"""
import json
from pathlib import Path

HERE = Path(__file__).parent
REFERENCE = HERE.parent.parent / "h200"
RUNS = {
    "b-stride4-all": "environment B (the stride-64 search's #92) at stride 4, every test",
    "a-stride4": "environment A (the stride-4 search's #123) at stride 4, MP, LB and WRC",
    "b-stride64": "environment B at stride 64 (the default), MP, LB and WRC",
}
REFERENCE_RUNS = {"litmus-mutants": "the reference run, preset parallel", "litmus-mutants-tuned-wrc": "the reference run, preset tuned-wrc"}


def rows(path):
    """(kernel, placement, mutation) -> the row, for every mutant that was run."""
    record = json.loads(path.read_text())
    return {(r["mutant"]["kernel"], r["mutant"]["placement"], r["mutant"]["mutation"]): r
            for r in record["results"]["rows"] if r.get("counts") is not None}


runs = {name: rows(HERE / f"{name}.json") for name in RUNS}
reference = {name: rows(REFERENCE / f"{name}.json") for name in REFERENCE_RUNS}
killed_before = {k for run in reference.values() for k, r in run.items() if r["killed_after"] is not None}
print("# Exploratory mutation run (issue 23), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-02. Not the")
print("# reference run. `host litmus --mutants --placement inter-block --seconds 0.2` (host at 3c512b0) in two")
print("# environments of the stride searches (stride-tune.txt; every flag in stride-mutants/run.sh). Per run: the")
print("# mutants killed, and those killed here that neither of the reference run's two mutation runs killed. A")
print("# survivor's bound is the rule of three: fewer than 3 / instances per instance, at 95%. Made by")
print("# stride-mutants/summarize.py from the JSON files beside it and the reference run's litmus-mutants*.json.")
print()
for name, what in RUNS.items():
    run = runs[name]
    killed = {k for k, r in run.items() if r["killed_after"] is not None}
    print(f"{what}: {len(killed)} of {len(run)} killed")
    for kernel, placement, mutation in sorted(killed - killed_before):
        instances, seconds = run[(kernel, placement, mutation)]["killed_after"]
        print(f"  new: {kernel} {placement}, {mutation}: killed after {instances:.2e} instances, {seconds:.2f} s")
print()
everything = {k for run in list(runs.values()) + list(reference.values()) for k in run}
killed = {k for run in list(runs.values()) + list(reference.values()) for k, r in run.items() if r["killed_after"] is not None}
inter = {k for k in everything if k[1] == "inter-block"}
print(f"across blocks, killed by any of the five runs: {len(killed & inter)} of {len(inter)} mutants; per test:")
for test in sorted({k[0].split("_")[0] for k in inter}):
    of = {k for k in inter if k[0].split("_")[0] == test}
    print(f"  {test:<8} {len(killed & of):>3} of {len(of):>3}")
print()
print("the survivors across blocks of MP, LB and WRC in these runs, with the most instances any one of them ran:")
for k in sorted(inter - killed):
    if k[0].split("_")[0] not in ("mp", "lb", "wrc"):
        continue
    most = max(run[k]["counts"]["instances"] for run in list(runs.values()) + list(reference.values()) if k in run)
    print(f"  {k[0]:<24} {k[2]:<62} 0 in {most:.2e} (< {3 / most:.1e} per instance)")
