"""`medians.py CALL=DIR ...`: one CSV row per call, build, mode, round, size and
kernel from the `host bench --format json` files that `callN.sh` left in DIR
(named BUILD-MODE-ROUND.json): the median of the timed launches and the sums
the kernel returned. The JSON files themselves are not kept; this is how
`medians.csv` was made from them."""
import csv, glob, json, os, statistics, sys

w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["call", "build", "mode", "round", "n", "kernel", "median_ms", "min_ms", "max_ms", "sums"])
for arg in sys.argv[1:]:
    call, d = arg.split("=", 1)
    for f in sorted(glob.glob(os.path.join(d, "*-*-*.json"))):
        build, mode, rnd = os.path.basename(f)[:-5].rsplit("-", 2)
        for row in json.load(open(f))["results"]["rows"]:
            s = row["sums"]
            for m in s["measurements"]:
                t = m["times_ms"]
                sums = " ".join(sorted({repr(x) for x in m["sums"]}))
                w.writerow([call, build, mode, rnd, s["n"], m["kernel"], statistics.median(t), min(t), max(t), sums])
