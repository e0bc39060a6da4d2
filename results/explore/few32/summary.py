#!/usr/bin/env python3
"""The few-chunk entry up to 32 chunks against main: `summary.py [AB.tgz]` reads the interleaved rounds of
`host bench` (main's binary, then this build's, warm and cold) and prints, for each size and cache state, the
deterministic sum's time over main's in the same round, its time over the fastest of the lab's non-deterministic
sums in each binary's bench (issue 37's det/fastest), and which entry each build launched. Each cell is the
least-greatest over the rounds; ratios within one round, not a timing test."""
import collections, io, json, statistics, sys, tarfile

NON_DETERMINISTIC = ["global_atomic", "shared_atomic", "tree_atomic", "warp_shuffle", "bandwidth"]

def rows(data):
    out = {}
    for row in json.loads(data)["results"]["rows"]:
        ms = {m["kernel"]: m for m in row["sums"]["measurements"]}
        t = {k: statistics.median(m["times_ms"]) for k, m in ms.items()}
        fastest = min(t[k] for k in NON_DETERMINISTIC if k in t)
        out[row["sums"]["n"]] = (t["deterministic"], fastest, ms["deterministic"].get("entry") or "sum_deterministic")
    return out

def main(path):
    files = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            files[member.name] = tar.extractfile(member).read()
    ratios = collections.defaultdict(list)
    entries = {}
    for name in sorted(files):
        if not name.startswith("main-"):
            continue
        main_rows, new_rows = rows(files[name]), rows(files[name.replace("main-", "few32-")])
        cache = name.split("-")[1]
        for n in main_rows:
            (d0, f0, e0), (d1, f1, e1) = main_rows[n], new_rows[n]
            ratios[(n, cache)].append((d1 / d0, d0 / f0, d1 / f1))
            entries[n] = (e0, e1)
    rounds = len({name for name in files if name.startswith("main-warm")})
    print(f"{path}: {rounds} interleaved rounds; each cell least-greatest over them, warm | cold")
    print(f"{'n':>7} {'chunks':>6} | {'few32 / main':>21} | {'det/fastest, main':>21} | {'det/fastest, few32':>21} | entry main -> few32")
    for n in sorted({n for n, _ in ratios}):
        cells = []
        for i in range(3):
            cells.append(" ".join(f"{min(r[i] for r in ratios[(n, c)]):.2f}-{max(r[i] for r in ratios[(n, c)]):.2f}"
                                  for c in ("warm", "cold")))
        chunks = -(-n // 8192)
        print(f"{n:>7} {chunks:>6} | " + " | ".join(f"{c:>21}" for c in cells) + f" | {entries[n][0]} -> {entries[n][1]}")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ab.tgz")
