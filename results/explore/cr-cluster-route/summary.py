#!/usr/bin/env python3
"""The cluster route's A/B (`call1.sh`, `ab.tgz`): for each round, warm and cold,
the correctly rounded sum's median time in this build over main's (the binary
before the route), and this build's correctly rounded time over its bandwidth
kernel's and over the faster of its bandwidth and warp-shuffle sums, with the
entry this build launched. Ratios of medians of 10 launches within one call."""
import io, json, statistics, tarfile
from pathlib import Path

SIZES = [8192, 16384, 32768, 65536, 131072, 262144]


def medians(data):
    out = {}
    for row in json.loads(data)["results"]["rows"]:
        n = row["sums"]["n"]
        for m in row["sums"]["measurements"]:
            out[(n, m["kernel"])] = (statistics.median(m["times_ms"]) * 1000, m.get("entry"))
    return out


def main():
    with tarfile.open(Path(__file__).with_name("ab.tgz")) as tar:
        runs = {Path(m.name).stem: medians(tar.extractfile(m).read()) for m in tar.getmembers() if m.isfile()}
    print("n: this build's CR / main's CR, CR / bandwidth, CR / faster of bandwidth and warp shuffle, entry (CR us)")
    for temp in ["warm", "cold"]:
        for r in [1, 2, 3]:
            main_, new = runs[f"main-{temp}-{r}"], runs[f"new-{temp}-{r}"]
            cells = []
            for n in SIZES:
                cr, entry = new[(n, "correctly_rounded")]
                fastest = min(new[(n, "bandwidth")][0], new[(n, "warp_shuffle")][0])
                name = (entry or "own entry").removeprefix("sum_correctly_rounded_")
                cells.append(
                    f"{n}: {cr / main_[(n, 'correctly_rounded')][0]:.2f} {cr / new[(n, 'bandwidth')][0]:.2f} "
                    f"{cr / fastest:.2f} {name} ({cr:.1f})"
                )
            print(f"{temp} {r}: " + " | ".join(cells))


main()
