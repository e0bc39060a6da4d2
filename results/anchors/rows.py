"""Prints an anchors CSV from a cuda-litmus output file: the rows for the tests
and variants the lab shares with cuda-litmus, with every thread in its own block.

    python3 results/anchors/rows.py OUTPUT.txt REPO COMMIT PATH > results/anchors/FILE.csv

OUTPUT.txt is the cuda-litmus file itself (for the Hopper anchors, hopper.txt
unzipped from output-files/hopper.zip); REPO, COMMIT and PATH say where it was
read and fill the last three columns. See README.md for what each column means."""
import re
import sys
from collections import defaultdict

# cuda-litmus binary -> (lab test, lab variant). Relaxed device-scope accesses
# with fence.acq_rel between each reader's two accesses are fence-acq-rel-*.
ROWS = [
    ("iriw", "relaxed-cta", "iriw-TB_0_1_2_3-SCOPE_BLOCK-NO_FENCE-RELAXED"),
    ("iriw", "fence-acq-rel-cta", "iriw-TB_0_1_2_3-SCOPE_DEVICE-FENCE_SCOPE_BLOCK-BOTH_FENCE"),
    ("iriw", "fence-acq-rel-gpu", "iriw-TB_0_1_2_3-SCOPE_DEVICE-FENCE_SCOPE_DEVICE-BOTH_FENCE"),
    ("iriw", "relaxed-gpu", "iriw-TB_0_1_2_3-SCOPE_DEVICE-NO_FENCE-RELAXED"),
    ("isa2", "relaxed-cta", "isa2-TB_0_1_2-SCOPE_BLOCK-NO_FENCE-RELAXED"),
    ("isa2", "relaxed-gpu", "isa2-TB_0_1_2-SCOPE_DEVICE-NO_FENCE-RELAXED"),
    ("rwc", "relaxed-cta", "rwc-TB_0_1_2-SCOPE_BLOCK-NO_FENCE-RELAXED"),
    ("rwc", "relaxed-gpu", "rwc-TB_0_1_2-SCOPE_DEVICE-NO_FENCE-RELAXED"),
    ("wrc", "relaxed-cta", "wrc-TB_0_1_2-SCOPE_BLOCK-NO_FENCE-RELAXED"),
    ("wrc", "fence-acq-rel-cta", "wrc-TB_0_1_2-SCOPE_DEVICE-FENCE_SCOPE_BLOCK-BOTH_FENCE"),
    ("wrc", "fence-acq-rel-gpu", "wrc-TB_0_1_2-SCOPE_DEVICE-FENCE_SCOPE_DEVICE-BOTH_FENCE"),
    ("wrc", "relaxed-gpu", "wrc-TB_0_1_2-SCOPE_DEVICE-NO_FENCE-RELAXED"),
]

LINE = re.compile(r"\s*Test (\S+) weak: (\d+), total: (\d+), rate: (\d+) per second")


def main(path, repo, commit, where):
    runs = defaultdict(list)  # binary -> [(weak, total, per second)] per environment
    for line in open(path):
        m = LINE.match(line)
        if m:
            runs[m.group(1)].append((int(m.group(2)), int(m.group(3)), int(m.group(4))))
    print("test,lab_variant,cuda_litmus_binary,environments,instances,weak,weak_per_million_mean,"
          "weak_per_million_max,weak_per_second_max,source_repo,source_commit,source_path")
    for test, variant, binary in ROWS:
        envs = runs[binary]
        if not envs:
            sys.exit(f"{path} has no line for {binary}")
        per_million = [w / t * 1e6 for w, t, _ in envs]
        print(f"{test},{variant},{binary},{len(envs)},{sum(t for _, t, _ in envs)},{sum(w for w, _, _ in envs)},"
              f"{sum(per_million) / len(envs):.3f},{max(per_million):.3f},{max(r for _, _, r in envs)},"
              f"{repo},{commit},{where}")


if __name__ == "__main__":
    main(*sys.argv[1:5])
