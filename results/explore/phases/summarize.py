"""Prints ../phases.txt from the stamps in stamps.tgz (phases.cpp's output on the H200):
python3 results/explore/phases/summarize.py > results/explore/phases.txt"""
import statistics, struct, tarfile
from pathlib import Path

HERE = Path(__file__).parent
SIZES = (16384, 65536, 1048576, 4194304, 268435456, 1073741824, 2147483648)
LAUNCHES = 5
# Each kernel's stamps (phases.patch), in program order, all by thread 0 of a block. A stamp is a clock read
# and a store; it does not wait for an earlier atomic's value, so a ticket's round trip lands in the segment
# after it.
POINTS = {
    "sum_bandwidth": ["entry", "loop done", "block sum added"],
    "sum_deterministic": ["entry", "chunk sums delivered", "route done", "combine done"],
    "sum_correctly_rounded": ["entry", "loop done", "warp sums done", "barrier passed", "block sum added and fenced",
                              "ticket issued", "finish done"],
}
with tarfile.open(HERE / "stamps.tgz") as tar:
    FILES = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def launch(kernel, n, rep):
    """Per block: (clock64 per point or None, globaltimer per point or None)."""
    raw = FILES[f"{kernel}-{n}-{rep}.u64"]
    words = struct.unpack(f"<{len(raw) // 8}Q", raw)
    blocks = []
    for b in range(len(words) // 16):
        w = words[16 * b:16 * b + 16]
        points = len(POINTS[kernel])
        clock = [w[2 * p] or None for p in range(points)]
        timer = [w[2 * p + 1] or None for p in range(points)]
        blocks.append((clock, timer))
    return blocks


def cycles_per_ns():
    """The SM clock, from the longest launches: clock64 against globaltimer over each block's life."""
    rates = []
    for rep in range(LAUNCHES):
        for clock, timer in launch("sum_bandwidth", SIZES[-1], rep):
            rates.append((clock[2] - clock[0]) / (timer[2] - timer[0]))
    return statistics.median(rates)


RATE = cycles_per_ns()
med = statistics.median

print("# Exploratory run (issue 21), one NVIDIA H200 (driver 580.159.04, CUDA 13.0), 2026-12-02. Not the reference run.")
print("# Where a launch's time goes: main's bandwidth, deterministic and correctly rounded sums with a stamp (clock64 and")
print("# globaltimer, stored by thread 0 of each block) at each phase boundary (phases.patch, against f9e4277), launched by")
print("# phases.cpp through the driver API with the host's grid rule, block 256, bench's sparse input, a 50 us hold before")
print("# each start event; 5 stamped launches a row, each figure the median over them (2^30 and 2^31 in a second run of")
print("# phases.cpp, the same day and GPU; both in phases/run.sh). span: first block's entry to the")
print("# last stamp of the launch (globaltimer). Segments: the median block's time from each stamp to the next, and the")
print("# same for the block that ends the launch (the last stamp), in ns, from clock64 at the SM clock measured beside it")
print(f"# ({RATE:.2f} cycles/ns). A stamp does not wait for an atomic's value: a ticket's round trip lands in the segment")
print("# after it. Event times (median of 10) of main's kernels and of the stamped copies, from the same program:")
for line in (FILES["times.txt"] + FILES["times-large.txt"]).decode().splitlines():
    if line.startswith("#"):
        continue
    kernel, n, blocks, build, us, _ = line.split()
    if build == "main":
        print(f"#   {kernel:22} {int(n):>10} {int(blocks):>4} blocks  {us:>7} us", end="")
    else:
        print(f"  (stamped {us} us)")
print()
for n in SIZES:
    print(f"## n = {n}")
    for kernel, names in POINTS.items():
        spans, segments, last_segments, blocks = [], [], [], 0
        for rep in range(LAUNCHES):
            launch_blocks = launch(kernel, n, rep)
            blocks = len(launch_blocks)
            entries = [t[0] for _, t in launch_blocks]
            ends = [max(x for x in t if x) for _, t in launch_blocks]
            spans.append((max(ends) - min(entries)) / 1000)
            per_segment = [[c[i] - c[i - 1] for c, _ in launch_blocks if c[i] and c[i - 1]] for i in range(1, len(names))]
            segments.append([med(s) / RATE if s else None for s in per_segment])
            last = max(range(blocks), key=lambda b: ends[b])
            c = launch_blocks[last][0]
            last_segments.append([(c[i] - c[i - 1]) / RATE if c[i] and c[i - 1] else None for i in range(1, len(names))])

        def column(rows, i):
            values = [r[i] for r in rows if r[i] is not None]
            return f"{med(values):7.0f}" if values else "      -"

        print(f"{kernel:22} {blocks:>4} blocks, span {med(spans):7.2f} us")
        for i in range(1, len(names)):
            print(f"    {names[i - 1] + ' -> ' + names[i]:46} median block {column(segments, i - 1)}   last block {column(last_segments, i - 1)}")
    print()
