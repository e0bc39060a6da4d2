#!/usr/bin/env python3
"""The deterministic sum with its start ticket 4 KB from the handoff slots, against main: `summary.py [ab.tgz]`.

The tarball holds `host bench --format json` records named new-ROUND-CACHE.json (the
spaced build's PTX, embedded) and old-ROUND-CACHE.json (main's PTX through `--ptx`), one
host binary, three interleaved rounds. Per size: the deterministic sum's median over
main's in the same round, and each build's deterministic median over the fastest of the
lab's non-deterministic sums in its own bench (issue 37's ratio). Ratios of medians
within one round; nothing here is a timing test."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_json import medians, records  # noqa: E402

EXACT = {"deterministic", "correctly_rounded"}

def main(path):
    runs = {(build, int(r), cache): medians(record)
            for (build, r, cache), record in records(path, r"(new|old)-(\d)-(warm|cold)\.json$").items()}
    for cache in ("warm", "cold"):
        rounds = sorted({r for _, r, c in runs if c == cache})
        print(f"{cache}: {'n':>9} | {'spaced / main':>14} | {'main / fastest':>14} | {'spaced / fastest':>16}")
        for n in sorted(runs[("old", rounds[0], cache)]):
            det = lambda b, r: runs[(b, r, cache)][n]["deterministic"]
            fastest = lambda b, r: min(t for k, t in runs[(b, r, cache)][n].items() if k not in EXACT)
            cells = [" ".join(f"{f(r):.2f}" for r in rounds) for f in
                     (lambda r: det("new", r) / det("old", r), lambda r: det("old", r) / fastest("old", r),
                      lambda r: det("new", r) / fastest("new", r))]
            print(f"{'':6}{n:>9} | {cells[0]:>14} | {cells[1]:>14} | {cells[2]:>16}")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ab.tgz")
