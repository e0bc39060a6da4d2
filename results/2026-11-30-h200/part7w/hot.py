"""Summarise an ncu source-page CSV (SASS, warp-state samples): the total
samples by stall reason, and the instructions that hold the most samples,
each with its reasons. Usage: hot.py FILE.csv [TOP]"""
import csv
import sys

rows = list(csv.reader(open(sys.argv[1])))
top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
# The page holds one section per profiled launch, each a "Kernel Name" row
# and a header row; the last section is the launch the script asked for.
start = max(i for i, r in enumerate(rows) if r and r[0] == "Kernel Name")
head = rows[start + 1]
col = {name: i for i, name in enumerate(head)}
reasons = [h for h in head if h.startswith("stall_") and "(Not Issued)" not in h]
body = [r for r in rows[start + 2:] if len(r) == len(head) and r[0] != "Address"]
total = sum(int(r[col["# Samples"]]) for r in body)
insts = sum(int(r[col["Instructions Executed"]]) for r in body)
print(f"{sys.argv[1]}: {total} samples, {insts} warp instructions executed")
by_reason = {s: sum(int(r[col[s]]) for r in body) for s in reasons}
print("  " + ", ".join(f"{s[6:]} {v}" for s, v in sorted(by_reason.items(), key=lambda kv: -kv[1]) if v))
for r in sorted(body, key=lambda r: -int(r[col["# Samples"]]))[:top]:
    why = ", ".join(f"{s[6:]} {r[col[s]]}" for s in reasons if int(r[col[s]]))
    print(f"  {int(r[col['# Samples']]):5d}  {r[0][-5:]}  {r[1].strip():45.45s} x{r[col['Instructions Executed']]:>5s}  {why}")
