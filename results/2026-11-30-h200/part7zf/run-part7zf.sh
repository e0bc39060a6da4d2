#!/bin/bash
# Part 7 on the H200: n5.ptx (n4, the build of record, with the ticket
# route's warp-per-chunk rounds fed by a counter: each warp takes its next
# chunk with an un-aggregated atom.inc before summing the current one and
# reads it after; d65e397 tried this with an add, which ptxas aggregated
# and shuffled at once) against n4.ptx. The GPU tests of the n5 build
# (gpu-n5), then three rounds, warm and cold, alternating, one host (--ptx),
# 2^23 (handoff route, unchanged) to 2^28. Run from the repository root with
# .device/ holding host, gpu-n5 and the PTX files. Everything comes back as
# $OUT/part7zf.tar.gz.
set -u
cd .device; W=$OUT/part7zf; mkdir -p $W
{ timeout 150 ./gpu-n5; echo "rc=$?"; } > $W/gpu-tests-n5.txt 2>&1
SIZES=8388608,16777216,33554432,67108864,134217728,268435456
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in n4 n5; do
      timeout 90 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7zf.tar.gz -C $OUT part7zf; rm -rf $W
