#!/usr/bin/env python3
"""The correctly rounded sum's handoff route against main's kernel: `summary.py [ab.tgz]`.

The tarball holds `host bench --format json` records named new-ROUND-CACHE.json (the
route's PTX, embedded) and old-ROUND-CACHE.json (main's PTX through `--ptx`), one host
binary, three interleaved rounds. Per size, the correctly rounded sum's median over
main's in the same round, and each build's share of the bandwidth kernel's
throughput. Ratios of medians within one round; nothing here is a timing test."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_json import medians, records  # noqa: E402

def main(path):
    runs = {(build, int(r), cache): medians(record)
            for (build, r, cache), record in records(path, r"(new|old)-(\d)-(warm|cold)\.json$").items()}
    for cache in ("warm", "cold"):
        rounds = sorted({r for _, r, c in runs if c == cache})
        print(f"{cache}: {'n':>9} | {'route / main':>14} | {'main share':>14} | {'route share':>14}")
        for n in sorted(runs[("old", rounds[0], cache)]):
            cr = lambda b, r: runs[(b, r, cache)][n]["correctly_rounded"]
            share = lambda b, r: runs[(b, r, cache)][n]["bandwidth"] / cr(b, r)
            cells = [" ".join(f"{f(r):.2f}" for r in rounds) for f in
                     (lambda r: cr("new", r) / cr("old", r), lambda r: share("old", r), lambda r: share("new", r))]
            print(f"{'':6}{n:>9} | " + " | ".join(f"{c:>14}" for c in cells))

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ab.tgz")
