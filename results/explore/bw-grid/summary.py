#!/usr/bin/env python3
"""The bandwidth kernel's grid rule at mid sizes: `summary.py [AB.tgz]` reads three interleaved rounds of
`host bench` from main's binary and two builds that give each thread more floats before the grid fills the
device, and prints for each size and cache state the bandwidth kernel's time in each build over main's in the
same round, and main's bandwidth kernel over the fastest of main's other non-deterministic sums. Each cell is
the least-greatest over the rounds, warm | cold; ratios within one round, not a timing test."""
import collections, json, statistics, sys, tarfile

OTHERS = ["global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle"]

def rows(data):
    out = {}
    for row in json.loads(data)["results"]["rows"]:
        t = {m["kernel"]: statistics.median(m["times_ms"]) for m in row["sums"]["measurements"]}
        out[row["sums"]["n"]] = t
    return out

def main(path):
    with tarfile.open(path) as tar:
        files = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
    builds = ["bw16", "bw32"]
    ratios = collections.defaultdict(list)
    for name in sorted(files):
        if not name.startswith("main-"):
            continue
        cache = name.split("-")[1]
        base = rows(files[name])
        other = {b: rows(files[name.replace("main-", b + "-")]) for b in builds}
        for n, t in base.items():
            others = min(t[k] for k in OTHERS if k in t)
            ratios[(n, cache)].append([other[b][n]["bandwidth"] / t["bandwidth"] for b in builds] + [t["bandwidth"] / others])
    rounds = len({n for n in files if n.startswith("main-warm")})
    cols = [f"{b} / main" for b in builds] + ["main bw / other fastest"]
    print(f"{path}: {rounds} interleaved rounds; each cell least-greatest over them, warm | cold")
    print(f"{'n':>9} | " + " | ".join(f"{c:>23}" for c in cols))
    for n in sorted({n for n, _ in ratios}):
        cells = []
        for i in range(len(cols)):
            cells.append(" ".join(f"{min(r[i] for r in ratios[(n, c)]):.2f}-{max(r[i] for r in ratios[(n, c)]):.2f}"
                                  for c in ("warm", "cold")))
        print(f"{n:>9} | " + " | ".join(f"{c:>23}" for c in cells))

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ab.tgz")
