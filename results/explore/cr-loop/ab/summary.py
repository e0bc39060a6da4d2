"""`summary.py medians.csv`: for each call, the correctly rounded sum's median
time in each build over main's in the same round (interleaved rounds, so
the drift of the machine falls on both), and the bandwidth kernel's time over
the correctly rounded sum's in each build (after the bar), each as the
lowest and highest of the rounds. Call 4 is an A/A: main against the
same PTX loaded with `--ptx`, the spread of an unchanged kernel. Fails if any
build's correctly rounded sums differ from main's."""
import csv, sys
from collections import defaultdict

def span(values, digits):
    """The lowest and highest of a round's ratios."""
    return f"{min(values):.{digits}f}–{max(values):.{digits}f}"


rows = list(csv.DictReader(open(sys.argv[1])))
t = {(r["call"], r["build"], r["mode"], r["round"], int(r["n"]), r["kernel"]): r for r in rows}
CR, BW = "correctly_rounded", "bandwidth"
for call in sorted({r["call"] for r in rows}):
    builds = sorted({r["build"] for r in rows if r["call"] == call and r["build"] != "main"})
    rounds = sorted({r["round"] for r in rows if r["call"] == call})
    sizes = sorted({int(r["n"]) for r in rows if r["call"] == call})
    for mode in ("warm", "cold"):
        print(f"call {call}, {mode}: {len(rounds)} rounds, lowest–highest")
        for n in sizes:
            ratio, share = defaultdict(list), defaultdict(list)
            for rnd in rounds:
                a = t[(call, "main", mode, rnd, n, CR)]
                share["main"].append(float(t[(call, "main", mode, rnd, n, BW)]["median_ms"]) / float(a["median_ms"]))
                for b in builds:
                    x = t[(call, b, mode, rnd, n, CR)]
                    if x["sums"] != a["sums"]:
                        sys.exit(f"call {call} {b} {mode} round {rnd} n {n}: sums {x['sums']} against main's {a['sums']}")
                    ratio[b].append(float(x["median_ms"]) / float(a["median_ms"]))
                    share[b].append(float(t[(call, b, mode, rnd, n, BW)]["median_ms"]) / float(x["median_ms"]))
            left = "  ".join(f"{b} {span(ratio[b], 3)}" for b in builds)
            right = "  ".join(f"{b} {span(share[b], 2)}" for b in ["main", *builds])
            print(f"  2^{n.bit_length() - 1:<2}  {left}  | {right}")
        print()
