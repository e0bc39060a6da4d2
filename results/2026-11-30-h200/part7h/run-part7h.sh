#!/bin/bash
# Part 7 on the H200: which change made the deterministic sum slower at 2^28.
# The bench at 2^28, warm and cold, alternating, two rounds, for 67ac622's
# kernel (p0.ptx), the working kernel (pC.ptx: a76751d plus the one-segment
# combine) and pC with one change taken out: noover (no vector loads for a
# short chunk's whole batches), noleft (every whole chunk a warp each, as
# 67ac622), nohand (no handoff route), directwrite (the warp loop stores its
# partial without the route's branch), all3 (noover + noleft + nohand).
# Run from the repository root with .device/ holding host and the PTX files.
set -u
cd .device; W=$OUT/part7h; mkdir -p $W
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for p in p0 pC noover noleft nohand directwrite all3; do
      timeout 60 ./host --ptx $p.ptx bench --sizes 268435456 $flag --format json --output $W/bench-$p-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$p $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7h.tar.gz -C $OUT part7h && rm -rf $W
