#!/bin/bash
# Part 7 on the H200, the run of record for this session's kernel (n3:
# 32-bit indices, one barrier per round, the segment gathered whole, an
# un-aggregated start ticket, the one-chunk entry path, branch weights).
# host: that build; host-before: 249c14a with the hold and read flush of
# 13289f4 and 063a01e (the kernel the issue measured, timed the same way).
# Runs, in one job: the GPU tests; the bench of both builds, warm and cold,
# two rounds, alternating; the bench from 2^12 to 2^31 (json, plot, warm
# and cold tables); nvcc-compare (CUB beside the lab); xtask sanitize. Run
# from the repository root with .device/ holding host, host-before, gpu and
# xtask. Everything comes back as $OUT/part7za.tar.gz, rewritten after each
# phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7za; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7za.tar.gz -C $OUT part7za; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.txt 2>&1
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,33554432,268435456
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
{ timeout 200 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
rm -rf $W
