"""The deterministic and bandwidth kernels' medians, round by round, for the
builds of one part-7 experiment run (part7d to part7j), in microseconds. Run
in the folder of the JSON files with the builds' names as the run script
wrote them:

    python3 ../part7/compare.py p0 pD pE > compare.md

Each cell is `round 1 / round 2` (one value per round the run made); only the deterministic kernel differs
between builds, so the bandwidth rows show the noise of the method."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_json import medians as load  # noqa: E402

BUILDS = sys.argv[1:]
# As many rounds as the run made (most made two; part7z three).
ROUNDS = tuple(r for r in (1, 2, 3) if os.path.exists(f"bench-{BUILDS[0]}-warm-{r}.json"))

print(f"# {', '.join(BUILDS)}: medians of 10 timed launches, "
      + " / ".join(f"round {r}" for r in ROUNDS) + ", µs")
for temp in ("warm", "cold"):
    runs = {b: [load(f"bench-{b}-{temp}-{r}.json") for r in ROUNDS] for b in BUILDS}
    sizes = sorted({n for _, n in runs[BUILDS[0]][0]})
    print(f"\n## {temp}\n")
    print("| kernel | build | " + " | ".join(f"{n:,}" for n in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for kernel in ("deterministic", "bandwidth"):
        for b in BUILDS:
            cells = [" / ".join(f"{r[(kernel, n)]:.2f}" for r in runs[b]) for n in sizes]
            print(f"| {kernel} | {b} | " + " | ".join(cells) + " |")
