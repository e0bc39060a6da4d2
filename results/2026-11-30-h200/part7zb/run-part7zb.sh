#!/bin/bash
# Part 7 on the H200: n4.ptx (n3 without the likely() on a batch's reader,
# which left ptxas keeping 208 bytes of stack: n4 has 0, 50 registers)
# against n2.ptx (part7y) and n3.ptx (part7z), up to 2^28 this time.
# Three rounds, warm and cold, alternating, one host (--ptx). Run from the
# repository root with .device/ holding host and the PTX files. Everything
# comes back as $OUT/part7zb.tar.gz, rewritten after each phase.
set -u
cd .device; W=$OUT/part7zb; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7zb.tar.gz -C $OUT part7zb; }
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,268435456
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in n2 n3 n4; do
      timeout 60 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
rm -rf $W
