#!/usr/bin/env python3
"""The correctly rounded sum's one-block entry with and without its exactness checks:
`summary.py [runs.tgz]`. The tarball holds main-ROUND-CACHE.json (the entry as on main)
and nocheck-ROUND-CACHE.json (`nocheck.patch`, wrong on purpose), `host bench --format
json` from one binary (`--ptx` for the second), five interleaved rounds. Per size, the
correctly rounded sum's median in microseconds for each build (the range over the rounds),
their ratio round by round, and the entry each build's launches took. Nothing here is a timing test."""
import io, json, re, statistics, sys, tarfile

def medians(record):
    rows = record["results"]["rows"]
    return {r["sums"]["n"]: next((statistics.median(m["times_ms"]) * 1000, m.get("entry"))
                                 for m in r["sums"]["measurements"] if m["kernel"] == "correctly_rounded")
            for r in rows}

def main(path):
    runs = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            m = re.search(r"(main|nocheck)-(\d)-(warm|cold)\.json$", member.name)
            if m:
                runs[(m[1], int(m[2]), m[3])] = medians(json.load(io.TextIOWrapper(tar.extractfile(member))))
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
