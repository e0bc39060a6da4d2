#!/bin/bash
# Part 7, third step on the H200 (commit a76751d): the deterministic sum's
# handoff route (chunk sums through 64-bit slots to the last block to start),
# the block-per-chunk mode for a large grid's leftover chunks, and vector loads
# for whole batches of a short chunk. Runs the GPU tests; the accuracy table
# (the order of additions did not change, so the deterministic rows must not);
# the bench, alternating, two rounds, warm and cold, for the session's starting
# point (host-before, 249c14a), this commit without the handoff route (p2.ptx:
# HANDOFF_CHUNKS = 1) and this commit; nvcc-compare's CUB table; and ncu's DRAM
# bytes for the 2^24 cold launches with the L2 left as the flush leaves it.
# Run from the repository root with .device/ holding host, host-before, gpu,
# xtask and p2.ptx. Everything comes back as $OUT/part7d.tar.gz.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7d; mkdir -p $W
cp "$ROOT/xtask/nvcc/page_kernels.cu" "$ROOT/xtask/nvcc/cub_sum.cu" .
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; }
{ timeout 120 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
{ timeout 60 ./host accuracy; echo "rc=$?"; } > $W/accuracy.txt 2>&1; t accuracy
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before p2 after; do
      case $who in
        before) cmd="./host-before" ;;
        p2) cmd="./host --ptx p2.ptx" ;;
        after) cmd="./host" ;;
      esac
      timeout 60 $cmd bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
timeout 150 ./xtask nvcc-compare --host ./host --out /tmp/nvcc --cu ./page_kernels.cu --cub-cu ./cub_sum.cu > $W/nvcc-compare-cub.txt 2>&1; echo "rc=$?" >> $W/nvcc-compare-cub.txt; t nvcc-compare
timeout 60 ncu --cache-control none --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum ./host bench --sizes 16777216 --cold --runs 2 --warmup 0 > $W/ncu-2e24-cold.txt 2>&1; echo "rc=$?" >> $W/ncu-2e24-cold.txt; t ncu
tar czf $OUT/part7d.tar.gz -C $OUT part7d && rm -rf $W
