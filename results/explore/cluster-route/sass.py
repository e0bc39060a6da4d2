#!/usr/bin/env python3
"""Compares the SASS of the prototype's `push` kernel (`sass-prototype.txt`:
`nvcc -O3 -arch=sm_90 -cubin ../dsmem/dsmem.cu`, nvcc 13.0.88 from NVIDIA's
pip wheels, then `cuobjdump -sass`) with the port's
(`sass-port.txt`: `ptxas -arch=sm_90` 13.0 of the Hopper module built at
0e8d240, then `cuobjdump -sass`). Both were made on a machine without a GPU;
the driver's own build of the port on the H200 may differ in detail. Prints,
for each, the instruction count, where the first global load and the push
fall, and the loads, barriers and fences: the path a small launch fetches
before its first byte moves."""
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
LINE = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")

def opcodes(path):
    ops = []
    for line in path.read_text().splitlines():
        if m := LINE.match(line):
            ops.append(re.sub(r"^@!?U?P\w+\s+", "", m[2]).split()[0])
    return ops

for name, file in [("prototype push", "sass-prototype.txt"), ("port sum_deterministic_cluster", "sass-port.txt")]:
    ops = opcodes(HERE / file)
    at = lambda prefix: next(i for i, op in enumerate(ops) if op.startswith(prefix))
    loads = [op for op in ops if op.startswith("LDG")]
    sync = [op for op in ops if op.split(".")[0] in ("BAR", "FENCE", "MEMBAR", "CCTL", "SYNCS", "UCGABAR_ARV", "UCGABAR_WAIT", "STAS")]
    print(f"{name}: {len(ops)} instructions; first global load at #{at('LDG')}, the push (STAS) at #{at('STAS')}; "
          f"{len(loads)} global loads ({loads.count('LDG.E.128.CONSTANT')} of 128 bits)")
    print(f"  synchronising, in order: {' '.join(sync)}")
