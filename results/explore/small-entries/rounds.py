#!/usr/bin/env python3
"""Issue 37's two bench ratios in five rounds of `host bench`: `rounds.py [rounds.tgz]`.

The tarball holds main-ROUND-CACHE.json (`host bench --format json`, block 256, five
rounds, warm and cold interleaved), all from one binary whose kernels are the
reference run's. Per size, each round's deterministic sum over the fastest of the
lab's non-deterministic sums, and the correctly rounded sum's share of the bandwidth
kernel's throughput. Ratios of medians within one bench; nothing here is a timing test."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_json import medians, records  # noqa: E402

NON_DETERMINISTIC = ["global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle", "bandwidth"]

def main(path):
    runs = {(cache, int(r)): medians(record)
            for (r, cache), record in records(path, r"main-(\d)-(warm|cold)\.json$").items()}
    for cache in ("warm", "cold"):
        rounds = [runs[key] for key in sorted(k for k in runs if k[0] == cache)]
        print(f"{cache}: {len(rounds)} rounds")
        print(f"{'n':>9} | {'deterministic / fastest':>29} | {'correctly rounded share of bandwidth':>36}")
        for n in sorted(rounds[0]):
            det = [t[n]["deterministic"] / min(t[n][k] for k in NON_DETERMINISTIC if k in t[n]) for t in rounds]
            share = [t[n]["bandwidth"] / t[n]["correctly_rounded"] for t in rounds]
            print(f"{n:>9} | {' '.join(f'{x:.2f}' for x in det):>29} | {' '.join(f'{x:.2f}' for x in share):>36}")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rounds.tgz")
