#!/bin/bash
# Part 7 (issue 10) on the H200: the deterministic kernel's one-chunk and
# one-block paths. Runs the GPU tests, then the bench before (host-before,
# built from commit 249c14a) and after (host, this commit), alternating, twice
# each, warm and cold, and finally nvcc-compare's CUB table on the new code.
# Built on the CPU machine and copied in .device/ as ../run.sh describes; run
# from the repository root. Everything comes back under $OUT.
set -u
ROOT=$(pwd); cd .device
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
{ ./gpu; echo "rc=$?"; } > $OUT/gpu-tests.txt 2>&1
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before after; do
      bin=./host; [ $who = before ] && bin=./host-before
      $bin bench --sizes $SIZES $flag --format json --output $OUT/bench-$who-$temp-$round.json 2>> $OUT/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $OUT/bench-errors.txt
    done
  done
done
./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu > $OUT/nvcc-compare-cub.txt 2>&1; echo "rc=$?" >> $OUT/nvcc-compare-cub.txt
