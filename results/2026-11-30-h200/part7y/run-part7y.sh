#!/bin/bash
# Part 7 on the H200: n2.ptx (n1 and a one-chunk path tested first, at the
# kernel's entry) against n1.ptx (part7x) and v0.ptx (main at c057270).
# Runs, in one job: the GPU tests of the n2 build (gpu); the bench of the
# three PTX files with one host (--ptx), warm and cold, two rounds,
# alternating; nvcc-compare (CUB beside the lab, the host's embedded PTX
# being n2's); ncu's per-instruction samples of n2 at 4,096 and 16,384.
# Run from the repository root with .device/ holding host, gpu, xtask and
# the PTX files. Everything comes back as $OUT/part7y.tar.gz, rewritten
# after each phase.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7y; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7y.tar.gz -C $OUT part7y; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.txt 2>&1
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,33554432,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in v0 n1 n2; do
      timeout 60 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
{ timeout 150 ./xtask nvcc-compare --host ./host --out /tmp/nvcc-n2 --cu ./page_kernels.cu --cub-cu ./cub_sum.cu; echo "rc=$?"; } > $W/nvcc-compare-cub-n2.txt 2>&1; t nvcc-compare
for n in 4096 16384; do
  timeout 120 ncu --section SourceCounters --section WarpStateStats --warp-sampling-interval 0 --cache-control none --kernel-name sum_deterministic -f -o /tmp/rep-$n ./host bench --ptx n2.ptx --sizes $n --runs 1 --warmup 1 > $W/ncu-log-$n.txt 2>&1
  echo "rc=$?" >> $W/ncu-log-$n.txt
  timeout 60 ncu -i /tmp/rep-$n.ncu-rep --page source --csv --print-source sass > $W/src-sum_deterministic-$n.csv 2>&1
  t "ncu $n"
done
rm -rf $W
