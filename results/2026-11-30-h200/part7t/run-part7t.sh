#!/bin/bash
# Part 7 on the H200: the ticket route's warps take their chunks from a
# counter (d65e397, host) against the kernel of a3da881 (host-base) and
# 249c14a (host-before), all with the hold and read flush. Runs, in one job:
# the GPU tests of d65e397; the bench of the three builds from 4,096 to 2^28,
# warm and cold, two rounds, alternating; ncu's SM activity at 2^28 for
# d65e397 (as part7s measured the others); the bench from 2^12 to 2^31 and
# nvcc-compare for d65e397; xtask sanitize; memcheck on a bench at 2^26 (the
# counter's route on 132 SMs). Run from the repository root with .device/
# holding those binaries and xtask. Everything comes back as
# $OUT/part7t.tar.gz, rewritten after each phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7t; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7t.tar.gz -C $OUT part7t; }
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,33554432,67108864,134217728,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before base after; do
      case $who in before) bin=./host-before;; base) bin=./host-base;; after) bin=./host;; esac
      timeout 60 $bin bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
M=gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_active.min,gpc__cycles_elapsed.max
{ timeout 90 ncu --cache-control none --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics $M ./host bench --sizes 268435456 --runs 1 --warmup 1; echo "rc=$?"; } > $W/ncu-host-268435456.txt 2>&1; t ncu
BIG=4096,65536,1048576,16777216,268435456,1073741824,2147483648
{ timeout 120 ./host bench --sizes $BIG --format json --output $W/bench-to-2e31.json --plot $W/bench-to-2e31.svg; echo "rc=$?"; } > $W/bench-to-2e31-json.txt 2>&1
{ timeout 120 ./host bench --sizes $BIG; echo "rc=$?"; } > $W/bench-to-2e31.txt 2>&1
{ timeout 120 ./host bench --cold --sizes $BIG; echo "rc=$?"; } > $W/bench-cold-to-2e31.txt 2>&1; t bench-to-2e31
{ timeout 150 ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu; echo "rc=$?"; } > $W/nvcc-compare-cub.txt 2>&1; t nvcc-compare
{ timeout 150 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
{ timeout 60 compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no ./host bench --sizes 67108864 --runs 1 --warmup 0; echo "rc=$?"; } > $W/sanitizer-counter-2e26-memcheck.txt 2>&1; t "memcheck 2^26"
