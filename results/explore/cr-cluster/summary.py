"""`summary.py out.txt`: the cluster prototype's time over the lab's, per size and cache state, as the lowest and
highest of the rounds (each a median of 10 launches): over the lab's correctly rounded sum as `host bench` routes it
(`rounded`), over the lab's bandwidth kernel (`bandwidth`) and over the faster of the lab's bandwidth and warp-shuffle
sums (`fastest`). `cluster/Q` is the build with at most Q quads a thread, `verdict` cluster/4 with every block
waiting for rank 0's verdict; a build that does not fit a size is left out."""
import sys
from collections import defaultdict

rows = defaultdict(list)
names = None
for line in open(sys.argv[1]):
    if line.startswith("n "):
        names = [c.strip() for c in line.split("|")[1:]]
        continue
    if not names or not line[:1].isdigit():
        continue
    head, *cells = line.split("|")
    n, cache, _ = head.split()
    t = dict(zip(names, (None if c.strip() == "-" else float(c) for c in cells)))
    rows[(int(n), cache)].append(t)


def span(values):
    return f"{min(values):.2f}–{max(values):.2f}" if values else "-"


builds = [b for b in names if b.startswith("cluster/") or b == "verdict"]
print("n       cache  build      over rounded  over bandwidth  over fastest")
for (n, cache), runs in rows.items():
    for b in builds:
        if any(r[b] is None for r in runs):
            continue
        over = lambda other: [r[b] / other(r) for r in runs]
        rounded = over(lambda r: r["lab rounded"])
        bandwidth = over(lambda r: r["lab bandwidth"])
        fastest = over(lambda r: min(r["lab bandwidth"], r["lab warp shuffle"]))
        print(f"{n:<7} {cache:<6} {b:<10} {span(rounded):>12}  {span(bandwidth):>14}  {span(fastest):>12}")
