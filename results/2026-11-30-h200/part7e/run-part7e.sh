#!/bin/bash
# Part 7, a diagnosis on the H200 after part7d: where the deterministic sum's
# time goes. (1) ncu's warp-state, launch, occupancy and speed-of-light
# sections for the bandwidth and deterministic kernels at 4096, 65,536, 2^20
# and 2^28 floats (ncu flushes the caches before each replay pass: a cold
# launch), for this commit's kernel (a76751d) and for 67ac622's (p0.ptx).
# (2) The bench at 2^24 and 2^28, warm and cold, alternating, two rounds, for
# p0.ptx, this commit (pA.ptx) and this commit with every whole chunk summed a
# warp each, as 67ac622 did (pB.ptx). Run from the repository root with
# .device/ holding host, p0.ptx, pA.ptx and pB.ptx. Everything comes back as
# $OUT/part7e.tar.gz.
set -u
cd .device; W=$OUT/part7e; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; }
for p in pA p0; do
  for n in 4096 65536 1048576 268435456; do
    timeout 90 ncu --kernel-name regex:"sum_(bandwidth|deterministic)" --section WarpStateStats --section LaunchStats --section Occupancy --section SpeedOfLight ./host --ptx $p.ptx bench --sizes $n --runs 1 --warmup 0 > $W/ncu-$p-$n.txt 2>&1; echo "rc=$?" >> $W/ncu-$p-$n.txt
    t "ncu $p $n"
  done
done
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for p in p0 pA pB; do
      timeout 60 ./host --ptx $p.ptx bench --sizes 16777216,268435456 $flag --format json --output $W/bench-$p-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$p $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
tar czf $OUT/part7e.tar.gz -C $OUT part7e && rm -rf $W
