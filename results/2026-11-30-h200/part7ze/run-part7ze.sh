#!/bin/bash
# Part 7 on the H200: a spare block for the handoff route. host: the build
# of record (b7d11bc); host-plus1: the same kernels, with the host's grid for
# the deterministic sum one block larger whenever it has 2 or more blocks and
# all of them fit at once (an experiment in a worktree, not committed: one
# line in layout's Grid::blocks). The spare block has no chunk and, started
# last, usually draws the last start ticket, so the block that combines
# waits on the slots from the start instead of finishing a chunk first.
# Three rounds, warm and cold, alternating. Run from the repository root
# with .device/ holding both hosts. Everything comes back as
# $OUT/part7ze.tar.gz.
set -u
cd .device; W=$OUT/part7ze; mkdir -p $W
SIZES=8193,16384,65536,262144,1048576,4194304
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in after plus1; do
      bin=./host; [ $who = plus1 ] && bin=./host-plus1
      timeout 60 $bin bench --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
done
tar czf $OUT/part7ze.tar.gz -C $OUT part7ze; rm -rf $W
