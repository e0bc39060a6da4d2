#!/usr/bin/env bash
# The small route (issue 37) on the GPU: the sum GPU tests, then `host bench`
# with LAB_SMALL_ROUTE=off and on, interleaved, two rounds, warm and --cold, at
# 4096 .. 2^22. The routes are on branch p-small2, not on main: build the two
# binaries there. Runs on a machine without Rust, from the repository root,
# with the two binaries built and carried:
#
#   HOST       the host CLI        (default target/release/host)
#   GPU_TESTS  the GPU test binary (default: the newest target/release/deps/gpu-*)
#   OUT        where everything goes (default results/explore/small-route/out)
#
# Expected duration on one H200: about 1.5 to 2.5 minutes. Every `host`
# process loads the embedded PTX, which the driver compiles once and then
# finds in its JIT cache, the bench itself is well under a second of GPU
# time per process (8 sizes up to 16 MiB, 7 kernels, 3 + 20 launches each),
# and the sum tests run the deterministic and correctly rounded sums on every
# route (tens of seconds). Nothing here needs more than a few GiB.
#
# Each bench writes OUT/bench-<warm|cold>-<off|on>-<round>.json, and from it
# .csv and .txt through `host render` (no GPU). The bench runs every sum
# kernel, so the fastest non-deterministic one (warp shuffle, tree, bandwidth)
# is in every record. OUT/summary.txt is every bench's route line and the
# deterministic, correctly rounded, bandwidth and warp-shuffle rows.
set -uo pipefail

HOST=${HOST:-target/release/host}
GPU_TESTS=${GPU_TESTS:-$(ls -t target/release/deps/gpu-* 2>/dev/null | grep -v '\.d$' | head -n 1)}
OUT=${OUT:-results/explore/small-route/out}
SIZES=4096,8192,16384,32768,65536,262144,1048576,4194304
mkdir -p "$OUT"
status=0
start=$(date +%s)

{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
    echo "host: $HOST; gpu tests: ${GPU_TESTS:-none found}"
} | tee "$OUT/machine.txt"

# The sum tests: every route of the reproducible sums against their CPU
# models, each small route's block and reach as this driver's build allows
# (the test sum_small_routes_launch_blocks_their_functions_take prints every
# sum function's registers and most threads a block).
if [ -n "${GPU_TESTS:-}" ]; then
    # "sum" selects every sum test (sums_are_bit_exact/*, roofline_sums_*,
    # deterministic_sum_*, correctly_rounded_sum_*, sum_small_routes_*); each
    # run of the binary loads the module once.
    for filter in sum cold_measurements; do
        echo "== gpu tests: $filter"
        "$GPU_TESTS" --nocapture "$filter" 2>&1 | tee -a "$OUT/gpu-tests.txt" || status=1
    done
else
    echo "no GPU test binary: set GPU_TESTS" | tee -a "$OUT/gpu-tests.txt"
    status=1
fi
echo "gpu tests done after $(( $(date +%s) - start )) s" | tee -a "$OUT/machine.txt"

# Two rounds; in each, warm then cold, and off then on: the two routes are
# timed minutes apart at most, on the same clocks.
for round in 1 2; do
    for cache in warm cold; do
        for route in off on; do
            name="bench-$cache-$route-$round"
            flags=(bench --sizes "$SIZES" --runs 20 --warmup 3 --format json --output "$OUT/$name.json")
            [ "$cache" = cold ] && flags+=(--cold)
            if [ "$route" = off ]; then
                LAB_SMALL_ROUTE=off "$HOST" "${flags[@]}" 2> "$OUT/$name.err" || status=1
            else
                LAB_SMALL_ROUTE=on "$HOST" "${flags[@]}" 2> "$OUT/$name.err" || status=1
            fi
            if [ -s "$OUT/$name.json" ]; then
                "$HOST" render "$OUT/$name.json" --format csv --output "$OUT/$name.csv" || status=1
                "$HOST" render "$OUT/$name.json" --format table --output "$OUT/$name.txt" || status=1
            fi
            echo "$name done after $(( $(date +%s) - start )) s"
        done
    done
done

# One file to read first: each bench's route line and the four kernels' rows.
for f in "$OUT"/bench-*.txt; do
    [ -e "$f" ] || continue
    echo "== $(basename "$f" .txt)"
    grep -E '^Small route|^deterministic up|^The block is' "$f"
    grep -E '\| (deterministic|correctly rounded|bandwidth|warp shuffle|tree \+ atomic)' "$f"
done > "$OUT/summary.txt"
echo "total $(( $(date +%s) - start )) s, status $status" | tee -a "$OUT/machine.txt"
exit $status
