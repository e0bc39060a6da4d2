"""Per kernel, compares the SASS of two cuobjdump -sass listings with
addresses and encodings removed. Prints, for each kernel, `same` or the
first differing lines and the instruction counts, and for each listing
the MEMBAR, CCTL, FENCE and ATOM lines counted."""
import re
import sys
from collections import Counter


def functions(path):
    out, name = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            name = m.group(1)
            out[name] = []
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
        if name and m:
            out[name].append(re.sub(r"\s+", " ", m.group(1)))
    return out


a, b = functions(sys.argv[1]), functions(sys.argv[2])
same = 0
for name in sorted(set(a) | set(b)):
    x, y = a.get(name), b.get(name)
    if x is None or y is None:
        print(f"{name}: only in {'second' if x is None else 'first'}")
        continue
    if x == y:
        same += 1
        continue
    i = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    print(f"{name}: differ ({len(x)} and {len(y)} instructions), first at {i}: {x[i:i+3]} | {y[i:i+3]}")
print(f"{same} of {len(set(a) | set(b))} kernels identical")
for path, listing in ((sys.argv[1], a), (sys.argv[2], b)):
    ops = Counter()
    for body in listing.values():
        for ins in body:
            op = ins.split()[0] if not ins.startswith("@") else ins.split()[1]
            if op.split(".")[0] in ("MEMBAR", "CCTL", "FENCE", "ERRBAR", "ATOMG", "ATOM", "RED", "REDG"):
                ops[op] += 1
    print(path, dict(sorted(ops.items())))
