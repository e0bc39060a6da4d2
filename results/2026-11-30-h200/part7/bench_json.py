"""Reads one `host bench --format json` file: the median of each kernel's timed
launches at each size, and of the empty launch, in microseconds. Shared by
regression.py, compare.py and part7k/targets.py."""
import json
import statistics


def medians(path):
    """(kernel, n) -> median µs; the empty launch is the kernel "empty launch"."""
    out = {}
    for row in json.load(open(path))["results"]["rows"]:
        n = row["sums"]["n"]
        for m in row["sums"]["measurements"]:
            out[(m["kernel"], n)] = statistics.median(m["times_ms"]) * 1000
        out[("empty launch", n)] = statistics.median(row["empty_ms"]) * 1000
    return out
