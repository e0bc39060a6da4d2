#!/bin/bash
# Part 7 on the H200: where the deterministic sum should switch from a block
# per chunk to a warp per chunk. pD.ptx is the final kernel (815e5e1: a warp
# per chunk only for whole rounds of the grid's warps); t4.ptx and t8.ptx sum
# every whole chunk a warp each once the chunks reach a quarter or an eighth of
# the grid's warps. Bench from 2^21 to 2^25 and at 2^28, warm and cold,
# alternating, two rounds. Run from the repository root with .device/ holding
# host and the PTX files. Everything comes back as $OUT/part7m.tar.gz.
set -u
cd .device; W=$OUT/part7m; mkdir -p $W
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for p in pD t4 t8; do
      timeout 60 ./host --ptx $p.ptx bench --sizes 2097152,4194304,8388608,16777216,33554432,268435456 $flag --format json --output $W/bench-$p-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$p $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7m.tar.gz -C $OUT part7m && rm -rf $W
