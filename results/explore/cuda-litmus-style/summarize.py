"""Prints ../cuda-litmus-style.txt from run.log and the two litmus JSON files beside it:
python3 results/explore/cuda-litmus-style/summarize.py > results/explore/cuda-litmus-style.txt"""
import json
import re
from pathlib import Path

HERE = Path(__file__).parent
WEAK_BIN = {"wrc": 0b011, "iriw": 0b0101}  # the weak outcome's histogram bin: register r in bit r (layout::litmus::Test::weak)


def rule_of_three(instances):
    return f"< {3 / instances * 1e6:.3g} /M"


log = (HERE / "run.log").read_text()
print("# Exploratory run (issue 23), not the reference run; the script is cuda-litmus-style/run.sh, its")
print("# output cuda-litmus-style/run.log, and this summary is printed from them by cuda-litmus-style/summarize.py.")
print("# " + log.splitlines()[0] + ", " + log.splitlines()[1] + ", 2026-12-02.")
print()
print("## 1. WRC and IRIW in cuda-litmus's idiom (wrc.cu, iriw.cu), every role in a block of its own, 200 launches")
print("##    each. F: the .cta fence between each reader's accesses; M: partner blocks per lane (0) or per block (1);")
print("##    s: the location stride (2s words). A zero is shown with its bound (rule of three, 95%).")
print(f"{'test':>5} {'fence':>18} {'M':>2} {'s':>3} {'weak':>8} {'instances':>11}  per million")
for m in re.finditer(r"^(WRC|IRIW) F=(\d) M=(\d) s=(\d+) weak (\d+) of (\d+) (.*)$", log, re.M):
    test, f, mm, s, weak, n, status = m.groups()
    assert status == "no error", status
    weak, n = int(weak), int(n)
    rate = f"{weak / n * 1e6:.3g}" if weak else f"0 ({rule_of_three(n)})"
    fence = "fence.acq_rel.cta" if f == "1" else "none (relaxed)"
    print(f"{test:>5} {fence:>18} {mm:>2} {s:>3} {weak:>8} {n:>11}  {rate}")
print()
print("## 2. The lab's own WRC and IRIW (host built at 09829a6, whose litmus kernels are main's), in the block")
print("##    splits where cuda-litmus's Hopper file shows its highest fence-acq-rel-cta rates, 1 s a row.")
print(f"{'preset':>10} {'kernel':>22} {'placement':>14} {'model':>9} {'weak':>9} {'instances':>11}  per million")
for name, test, preset in (("splits-wrc", "wrc", "tuned-wrc"), ("splits-iriw", "iriw", "tuned-iriw")):
    rows = json.loads((HERE / f"{name}.json").read_text())["results"]["rows"]
    for r in rows:
        n = r["counts"]["instances"]
        weak = r["counts"]["histogram"][WEAK_BIN[test]]
        rate = f"{weak / n * 1e6:.3g}" if weak else f"0 ({rule_of_three(n)})"
        model = "allowed" if r["allowed"] else "forbidden"
        print(f"{preset:>10} {r['kernel']:>22} {r['placement']:>14} {model:>9} {weak:>9} {n:>11}  {rate}")
print()
print("## The sm_90 SASS of wrc.cu with the fence, compiled offline (run.log):")
sass = log.split("compiled offline; the driver's own compilation of the sm_80 PTX is not shown):")[1]
for line in sass.splitlines():
    if re.search(r"MEMBAR|LD\.|ST\.|CCTL", line):
        print("   " + " ".join(line.split()))
