#!/usr/bin/env python3
"""The patched kernels over main's at the sizes the straight paths leave alone: `host bench` built with the patch, with
its own PTX (new) and with main's (--ptx, main), interleaved rounds, warm and cold. Median over median, each round,
in round order: python3 ab.py DIR (DIR holds {main,new}-ROUND-{warm,cold}.json: `tar xzf ab.tgz`, then DIR is ab)."""
import glob
import json
import os
import statistics
import sys

KERNELS = ["deterministic", "correctly_rounded", "bandwidth"]


def medians(path):
    out = {}
    for row in json.load(open(path))["results"]["rows"]:
        for m in row["sums"]["measurements"]:
            out[(row["sums"]["n"], m["kernel"])] = statistics.median(m["times_ms"])
    return out


d = sys.argv[1]
rounds = sorted({int(os.path.basename(p).split("-")[1]) for p in glob.glob(f"{d}/new-*-warm.json")})
print("new / main, median over median in rounds %s (bandwidth: the same kernel in both builds)" % rounds)
print("%10s %-5s | " % ("n", "cache") + " | ".join("%29s" % k for k in KERNELS))
for cache in ["warm", "cold"]:
    runs = [(medians(f"{d}/new-{r}-{cache}.json"), medians(f"{d}/main-{r}-{cache}.json")) for r in rounds]
    for n in sorted({n for n, _ in runs[0][0]}):
        cells = []
        for k in KERNELS:
            ratios = [new[(n, k)] / main[(n, k)] for new, main in runs if (n, k) in new]
            cells.append("%29s" % ", ".join("%.2f" % x for x in ratios))
        print("%10d %-5s | " % (n, cache) + " | ".join(cells))
