#!/usr/bin/env python3
"""The correctly rounded sum's one-block entry with and without its exactness checks:
`summary.py [runs.tgz]`. The tarball holds main-ROUND-CACHE.json (the entry as on main)
and nocheck-ROUND-CACHE.json (`nocheck.patch`, wrong on purpose), `host bench --format
json` from one binary (`--ptx` for the second), five interleaved rounds. Per size, the
correctly rounded sum's median in microseconds for each build (the range over the rounds),
their ratio round by round, and the entry each build's launches took. Nothing here is a timing test."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_json import measurements, records  # noqa: E402
import statistics

def medians(record):
    """Per size, the correctly rounded sum's median in microseconds and the entry it launched."""
    return {n: (statistics.median(row["correctly_rounded"]["times_ms"]) * 1000, row["correctly_rounded"].get("entry"))
            for n, row in measurements(record).items()}

def main(path):
    runs = {(build, int(r), cache): medians(record)
            for (build, r, cache), record in records(path, r"(main|nocheck)-(\d)-(warm|cold)\.json$").items()}
    for cache in ("warm", "cold"):
        rounds = sorted({r for _, r, c in runs if c == cache})
        print(f"{cache}: {'n':>6} | {'main, us':>11} | {'no checks, us':>13} | {'no checks / main, per round':>29} | entries")
        for n in sorted(runs[("main", rounds[0], cache)]):
            main_us = [runs[("main", r, cache)][n][0] for r in rounds]
            bare_us = [runs[("nocheck", r, cache)][n][0] for r in rounds]
            span = lambda xs: f"{min(xs):.2f}-{max(xs):.2f}"
            ratios = " ".join(f"{b / a:.2f}" for a, b in zip(main_us, bare_us))
            short = lambda e: "small" if e == "sum_correctly_rounded_small" else (e or "general")
            entry = lambda build: "/".join(sorted({short(runs[(build, r, cache)][n][1]) for r in rounds}))
            entries = "same" if entry("main") == entry("nocheck") else f"{entry('main')}, {entry('nocheck')}"
            print(f"{'':6}{n:>6} | {span(main_us):>11} | {span(bare_us):>13} | {ratios:>29} | {entries}")
    entries = sorted({str(e) for run in runs.values() for _, e in run.values() if e})
    print(f"entries: the entry each build launched, main's first; small: {', '.join(entries)}; general: "
          "sum_correctly_rounded")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs.tgz")
