#!/bin/bash
# Part 7 on the H200: the handoff against one block. part7zc found the step
# from one chunk to two (8,192 to 8,193 floats) costs the deterministic
# kernel 0.64 us warm while 16 KiB more in one block costs 0.03. Here the
# host's grid puts 2 chunks (block 512) or up to 4 (block 1024) in one block,
# whose chunks meet behind a barrier (the one-block route, no handoff),
# beside block 256, where every chunk has its block and the handoff route.
# Three rounds, warm and cold. Run from the repository root with .device/
# holding host. Everything comes back as $OUT/part7zd.tar.gz.
set -u
cd .device; W=$OUT/part7zd; mkdir -p $W
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for block in 256 512 1024; do
      timeout 60 ./host bench --block $block --sizes 8192,8193,16384,32768,65536 $flag --format json --output $W/bench-b$block-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$block $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7zd.tar.gz -C $OUT part7zd; rm -rf $W
