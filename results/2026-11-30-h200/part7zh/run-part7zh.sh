#!/bin/bash
# Part 7 on the H200, the review's mend: one block-mode round written once
# (Round::run, used by the round loop and by one_chunk) instead of twice.
# Same additions, but the PTX differs (55 registers against 50, one more
# divergent-shuffle fallback), so: the GPU tests of the mended build
# (gpu-mend), and mend.ptx against n4.ptx (the build of record) with one
# host (--ptx), three rounds, warm and cold, alternating, 4,096 to 2^28.
# Run from the repository root with .device/ holding host, gpu-mend and the
# PTX files. Everything comes back as $OUT/part7zh.tar.gz.
set -u
cd .device; W=$OUT/part7zh; mkdir -p $W
{ timeout 150 ./gpu-mend; echo "rc=$?"; } > $W/gpu-tests-mend.txt 2>&1
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,268435456
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in n4 mend; do
      timeout 90 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7zh.tar.gz -C $OUT part7zh; rm -rf $W
