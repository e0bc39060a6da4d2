#!/bin/bash
# Part 7 on the H200: the timing hold (063a01e: every timed launch queued
# behind a 50 us `hold` kernel, so a start event is not stamped while the
# host is still queueing the launch) on top of the read flush (13289f4). The
# deterministic kernel is unchanged since 815e5e1. Runs, in one job: the GPU
# tests; a sweep; the bench before (host-before: 249c14a with the flush and
# the hold applied) and after, warm and cold, two rounds, and the warm bench
# of 13289f4 without the hold (host-nohold) on the same kernels; the bench
# from 2^12 to 2^31 warm and cold; nvcc-compare (the page kernels from
# nvcc's PTX, timed with the embedded hold and flush; CUB held and flushed
# the same way); and xtask sanitize (its bench run now cold, to 1,025
# chunks). Run from the repository root with .device/ holding host,
# host-before, host-nohold, gpu and xtask. Everything comes back as
# $OUT/part7p.tar.gz, rewritten after each phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7p; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7p.tar.gz -C $OUT part7p; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $W/env.txt 2>&1
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
{ timeout 60 ./host sweep --sizes 4096,4194304 --determinism-runs 5; echo "rc=$?"; } > $W/sweep.txt 2>&1; t sweep
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
  timeout 60 ./host-nohold bench --sizes $SIZES --format json --output $W/bench-nohold-warm-$round.json 2>> $W/bench-errors.txt
  echo "nohold warm $round rc=$?" >> $W/bench-errors.txt
  t "bench round $round"
done
BIG=4096,65536,1048576,16777216,268435456,1073741824,2147483648
{ timeout 120 ./host bench --sizes $BIG --format json --output $W/bench-to-2e31.json --plot $W/bench-to-2e31.svg; echo "rc=$?"; } > $W/bench-to-2e31-json.txt 2>&1
{ timeout 120 ./host bench --sizes $BIG; echo "rc=$?"; } > $W/bench-to-2e31.txt 2>&1
{ timeout 120 ./host bench --cold --sizes $BIG; echo "rc=$?"; } > $W/bench-cold-to-2e31.txt 2>&1; t bench-to-2e31
{ timeout 150 ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu; echo "rc=$?"; } > $W/nvcc-compare-cub.txt 2>&1; t nvcc-compare
{ timeout 200 ./xtask sanitize --host ./host --out $W/sanitizer; echo "rc=$?"; } > $W/sanitize.txt 2>&1; t sanitize
