#!/bin/bash
# Part 7 on the H200: the deterministic sum of commit 74c6bb1 (pE.ptx: up to
# 128 chunks, warp 0 of the combining block reads the handoff slots itself;
# the combining block prefetches the slot lines into L2) against pD.ptx
# (7caca66) and 67ac622's p0.ptx: the GPU tests (pE's code, embedded), then
# the bench at every size, warm and cold, alternating, two rounds. Run from
# the repository root with .device/ holding host, gpu and the PTX files.
# Everything comes back as $OUT/part7j.tar.gz.
set -u
cd .device; W=$OUT/part7j; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; }
{ timeout 120 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
SIZES=4096,16384,65536,262144,1048576,4194304,16777216,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for p in p0 pD pE; do
      timeout 60 ./host --ptx $p.ptx bench --sizes $SIZES $flag --format json --output $W/bench-$p-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$p $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
tar czf $OUT/part7j.tar.gz -C $OUT part7j && rm -rf $W
