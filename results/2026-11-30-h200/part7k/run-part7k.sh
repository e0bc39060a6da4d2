#!/bin/bash
# Part 7, the final run on the H200, of commit 815e5e1 (the deterministic
# kernel of 7caca66: handoff route, block-per-chunk leftovers, batch sums
# joined in carried floats, one-segment combine). Runs, in one job:
# the GPU tests; a sweep with the determinism table; the accuracy table (the
# order of additions did not change since 3fbcd26, so the deterministic rows
# must equal part7b's); the bench before (host-before, 249c14a, the start of
# part 7) and after, alternating, two rounds, warm and cold; the bench from
# 2^12 to 2^31 warm (JSON, plot, table) and cold; nvcc-compare's CUB table;
# every kernel under compute-sanitizer; and ncu's active and elapsed cycles
# for the deterministic and bandwidth kernels at 16,384 and 65,536 floats.
# Run from the repository root with .device/ holding host, host-before, gpu
# and xtask. Everything comes back as $OUT/part7k.tar.gz.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7k; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; }
{ timeout 120 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
{ timeout 60 ./host sweep --sizes 4096,4194304 --determinism-runs 5; echo "rc=$?"; } > $W/sweep.txt 2>&1; t sweep
{ timeout 60 ./host accuracy; echo "rc=$?"; } > $W/accuracy.txt 2>&1; t accuracy
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before after; do
      bin=./host; [ $who = before ] && bin=./host-before
      timeout 60 $bin bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
BIG=4096,65536,1048576,16777216,268435456,1073741824,2147483648
{ timeout 120 ./host bench --sizes $BIG --format json --output $W/bench-to-2e31.json --plot $W/bench-to-2e31.svg; echo "rc=$?"; } > $W/bench-to-2e31-json.txt 2>&1
{ timeout 120 ./host bench --sizes $BIG; echo "rc=$?"; } > $W/bench-to-2e31.txt 2>&1
{ timeout 120 ./host bench --cold --sizes $BIG; echo "rc=$?"; } > $W/bench-cold-to-2e31.txt 2>&1; t bench-to-2e31
{ timeout 150 ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu; echo "rc=$?"; } > $W/nvcc-compare-cub.txt 2>&1; t nvcc-compare
{ timeout 240 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
for n in 16384 65536; do
  { timeout 60 ncu --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics gpu__time_duration.sum,gpc__cycles_elapsed.max,sm__cycles_active.max,sm__cycles_active.avg ./host bench --sizes $n --runs 1 --warmup 0; echo "rc=$?"; } > $W/ncu-cycles-$n.txt 2>&1
done; t ncu
tar czf $OUT/part7k.tar.gz -C $OUT part7k && rm -rf $W
