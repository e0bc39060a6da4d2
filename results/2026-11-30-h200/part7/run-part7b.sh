#!/bin/bash
# Part 7, second step on the H200: the deterministic kernel's block-per-chunk
# mode (a new, still fixed, order of additions). Runs the GPU tests, the
# accuracy tables the README quotes (the order changed, so the deterministic
# kernel's errors did), the bench before (host-before, commit 249c14a) and
# after, alternating, two rounds, warm and cold, and nvcc-compare's CUB table.
# Run from the repository root with .device/ as ../run.sh describes (plus
# heavy-tailed.npy from ../make_heavy_tailed.py). Everything comes back as
# $OUT/part7b.tar.gz.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7b; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
{ ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1
{ ./host accuracy; echo "rc=$?"; } > $W/accuracy.txt 2>&1
{ ./host accuracy --input heavy-tailed.npy; echo "rc=$?"; } > $W/accuracy-heavy-tailed.txt 2>&1
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before after; do
      bin=./host; [ $who = before ] && bin=./host-before
      $bin bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu > $W/nvcc-compare-cub.txt 2>&1; echo "rc=$?" >> $W/nvcc-compare-cub.txt
tar czf $OUT/part7b.tar.gz -C $OUT part7b && rm -rf $W
