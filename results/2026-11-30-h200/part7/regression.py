"""The before/after table of part 7: every kernel, every size, warm and cold,
from the eight benches of a run that alternated two builds for two rounds
(run-part7.sh, run-part7b.sh). Each cell is the mean of the two rounds'
medians, in microseconds. Run in the folder of the JSON files:

    python3 ../part7/regression.py BEFORE_COMMIT AFTER_COMMIT [BEFORE_FILES AFTER_FILES]

writes regression.md there (part7: 249c14a fbba142; part7b: 249c14a 3fbcd26)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_json import medians  # noqa: E402

BEFORE, AFTER = sys.argv[1], sys.argv[2]
# The file prefixes of the two builds' JSON (bench-PREFIX-warm-1.json ...),
# for a run that timed more than two builds.
FILES = {"before": sys.argv[3], "after": sys.argv[4]} if len(sys.argv) > 4 else {"before": "before", "after": "after"}

KERNELS = ["global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle", "bandwidth",
           "deterministic", "correctly_rounded"]


def load(who, temp, rnd):
    return medians(f"bench-{FILES[who]}-{temp}-{rnd}.json")


lines = [f"# Part 7: before ({BEFORE}) and after ({AFTER}), H200, 2026-11-30", "",
         "Mean of two rounds' medians (10 timed launches after 3 warm-ups each), in µs;",
         "ratio = after / before. Only `deterministic` changed between the two builds:",
         "every other row measures the noise of the method.", ""]
for temp in ["warm", "cold"]:
    before = [load("before", temp, r) for r in (1, 2)]
    after = [load("after", temp, r) for r in (1, 2)]
    sizes = sorted({n for (_, n) in before[0]})
    lines += [f"## {temp}", "", "| kernel | " + " | ".join(f"{n:,}" for n in sizes) + " |",
              "|---|" + "---|" * len(sizes)]
    for k in KERNELS + ["empty launch"]:
        cells = []
        for n in sizes:
            if (k, n) not in before[0]:
                cells.append("-")
                continue
            b = sum(x[(k, n)] for x in before) / 2
            a = sum(x[(k, n)] for x in after) / 2
            cells.append(f"{b:.2f} → {a:.2f} ({a / b:.2f})")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    lines.append("")
open("regression.md", "w").write("\n".join(lines))
