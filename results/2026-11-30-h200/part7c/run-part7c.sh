#!/bin/bash
# Part 7, an experiment: the deterministic kernel's warp-per-chunk mode with a
# contiguous run of chunks per warp (host-v1) against the grid-stride loop of
# commit 3fbcd26 (host-v0) and the session's starting point (host-before,
# 249c14a), at the sizes where step 2 was slower, cold and warm, alternating,
# two rounds; then the GPU tests built with the contiguous runs.
set -u
cd .device; W=$OUT/part7c; mkdir -p $W
{ ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1
SIZES=4194304,16777216,67108864,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in before v0 v1; do
      ./host-$who bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7c.tar.gz -C $OUT part7c && rm -rf $W
