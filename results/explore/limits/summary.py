#!/usr/bin/env python3
"""Issue 37's ratios and the limits' ratios in one process: `summary.py OUT.txt` reads limits.cu's output and
prints two tables. Each cell is a ratio's least and greatest over the rounds, warm then cold: within a round every
kernel ran once, interleaved, so a ratio is taken within a round. Ratios, not times; nothing here is a timing test.

Issue 37's ratios (targets.py's names): det/fastest, the deterministic sum's time over the fastest of the lab's
non-deterministic sums (target at most 1.10); CR bw-share, the bandwidth kernel's time over the correctly rounded
sum's (at least 0.85 from 2^20, 0.95 from 2^26); CR/CUB and fastest/CUB, over CUB's default sum (at most 1.00).

The limits: at 4,096, tile_plain over CUB (a plain one-block sum against CUB's one-block path), tile_checked over
tile_plain (what exactness costs that block), the lab's correctly rounded sum over tile_checked (what the lab's
entry adds); from 16,384, plain-float sums of the deterministic sum's layout over the lab's fastest: chunk_red
(no meeting), chunk_handoff over chunk_red (the lab's meeting through L2 slots), chunk_push (meeting in rank 0's
shared memory), spread_push (one quad a thread, the same meeting), and the lab's deterministic sum over chunk_red
and over chunk_push."""
import collections, re, sys

NON_DETERMINISTIC = ["lab warp shuffle", "lab tree", "lab bandwidth"]

def fastest(r):
    return min(r[k] for k in NON_DETERMINISTIC if k in r)

TARGETS = [
    ("det/fastest", lambda r: r["lab deterministic"] / fastest(r)),
    ("CR bw-share", lambda r: r["lab bandwidth"] / r["lab correctly rounded"]),
    ("CR/CUB", lambda r: r["lab correctly rounded"] / r["CUB default"]),
    ("fastest/CUB", lambda r: fastest(r) / r["CUB default"]),
]
LIMITS = [
    ("plain/CUB", lambda r: r["tile_plain"] / r["CUB default"]),
    ("checked/plain", lambda r: r["tile_checked"] / r["tile_plain"]),
    ("CR/checked", lambda r: r["lab correctly rounded"] / r["tile_checked"]),
    ("red/fastest", lambda r: r["chunk_red"] / fastest(r)),
    ("handoff/red", lambda r: r["chunk_handoff"] / r["chunk_red"]),
    ("push/fastest", lambda r: r["chunk_push"] / fastest(r)),
    ("spread_push/fastest", lambda r: r["spread_push"] / fastest(r)),
    ("det/red", lambda r: r["lab deterministic"] / r["chunk_red"]),
    ("det/push", lambda r: r["lab deterministic"] / r["chunk_push"]),
]

def rounds(path):
    t = collections.defaultdict(dict)
    for line in open(path):
        m = re.match(r"time n=(\d+) cache=(\w+) round=(\d+) kernel=(.+) us=([\d.]+)", line)
        if m:
            t[(int(m[1]), m[2], int(m[3]))][m[4]] = float(m[5])
    return t

def cell(t, n, cache, f):
    try:
        v = [f(t[k]) for k in sorted(t) if k[0] == n and k[1] == cache]
    except KeyError:
        return None
    return f"{min(v):.2f}-{max(v):.2f}" if v else None

def table(t, ratios, title):
    sizes = sorted({k[0] for k in t})
    rows = []
    for n in sizes:
        cells = [" ".join(c or "-" for c in (cell(t, n, "warm", f), cell(t, n, "cold", f))) for _, f in ratios]
        if any(c != "- -" for c in cells):
            rows.append((n, cells))
    used = [i for i in range(len(ratios)) if any(cells[i] != "- -" for _, cells in rows)]
    widths = [max(len(ratios[i][0]), 19) for i in used]
    print(title)
    print(f"{'n':>10} | " + " | ".join(f"{ratios[i][0]:>{w}}" for i, w in zip(used, widths)))
    for n, cells in rows:
        print(f"{n:>10} | " + " | ".join(f"{cells[i]:>{w}}" for i, w in zip(used, widths)))

def main(path):
    t = rounds(path)
    small = len({k[2] for k in t if k[0] <= 1 << 24})
    large = len({k[2] for k in t if k[0] > 1 << 24})
    print(f"{path}: each cell the least-greatest ratio over {small} rounds ({large} past 2^24), warm then cold")
    table(t, TARGETS, "Issue 37's ratios")
    print()
    table(t, LIMITS[:3], "What limits them: one block at 4,096")
    print()
    table(t, LIMITS[3:], "What limits them: the deterministic sum's layout and meeting")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out-queued.txt")
