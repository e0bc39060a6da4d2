#!/bin/bash
# Part 7 on the H200: what the step from one chunk to two costs the
# deterministic kernel (build of record, part7za). 4,096 floats: one block
# reads 16 KiB; 8,192: one block reads 32 KiB, still no handoff; 8,193:
# two blocks and the handoff (a second block with one float); 16,384: two
# blocks of 32 KiB. Three rounds, warm and cold. Then ncu's SM cycles and
# duration of the deterministic and bandwidth kernels at 2^22 (512 chunks,
# one block each, one round), warm. Run from the repository root with
# .device/ holding host. Everything comes back as $OUT/part7zc.tar.gz.
set -u
cd .device; W=$OUT/part7zc; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7zc.tar.gz -C $OUT part7zc; }
for round in 1 2 3; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    timeout 60 ./host bench --sizes 4096,8192,8193,16384 $flag --format json --output $W/bench-after-$temp-$round.json 2>> $W/bench-errors.txt
    echo "$temp $round rc=$?" >> $W/bench-errors.txt
  done
done
t bench
M='gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_active.min,smsp__inst_executed.sum'
timeout 120 ncu --cache-control none --kernel-name regex:'sum_(deterministic|bandwidth)$' --metrics "$M" ./host bench --sizes 4194304 --runs 1 --warmup 1 > $W/ncu-2e22.txt 2>&1
echo "rc=$?" >> $W/ncu-2e22.txt
t ncu
rm -rf $W
