"""Prints cuda-litmus-coverage.csv from the cuda-litmus project's
`pldi26-output/results.csv`: for each GPU column (a100, h100, gh200), how
many of its tests the model allows (`base` is INSTANCE: the weak outcome is
an instance of the model) and in how many of those the weak outcome was
seen, and the same for the tests the model forbids (`base` is UNSAT).

Usage: python3 results/anchors/coverage.py results.csv REPO COMMIT PATH"""
import csv
import sys

path, repo, commit, source = sys.argv[1:5]
rows = list(csv.DictReader(open(path, newline="")))
print("gpu,tests,allowed,allowed_seen,forbidden,forbidden_seen,source")
for gpu in ("a100", "h100", "gh200"):
    allowed = [r for r in rows if r["base"] == "INSTANCE"]
    forbidden = [r for r in rows if r["base"] == "UNSAT"]
    seen = lambda rs: sum(1 for r in rs if r[gpu] == "seen")
    print(f"{gpu},{len(rows)},{len(allowed)},{seen(allowed)},{len(forbidden)},{seen(forbidden)},"
          f"{repo}@{commit[:7]}:{source}")
