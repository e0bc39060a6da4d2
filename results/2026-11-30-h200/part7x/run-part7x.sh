#!/bin/bash
# Part 7 on the H200: the deterministic kernel after part7w's diagnosis
# (n1.ptx: 32-bit index arithmetic, one barrier per block-mode round with
# two alternating buffers, the handoff's segment gathered whole into shared
# memory and read in quads, the start ticket an un-aggregated atom.inc)
# against main's (v0.ptx, c057270). Runs, in one job: the GPU tests of the
# new build (gpu); the bench of both PTX files with one host (--ptx), warm
# and cold, two rounds, alternating; ncu's per-instruction samples of the
# new kernel at 4,096, 65,536 and 2^23. Run from the repository root with
# .device/ holding host, gpu and the PTX files. Everything comes back as
# $OUT/part7x.tar.gz, rewritten after each phase.
set -u
cd .device; W=$OUT/part7x; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; tar czf $OUT/part7x.tar.gz -C $OUT part7x; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $W/env.txt 2>&1
{ timeout 150 ./gpu; echo "rc=$?"; } > $W/gpu-tests.txt 2>&1; t gpu-tests
SIZES=4096,16384,65536,262144,1048576,4194304,8388608,16777216,33554432,268435456
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for who in v0 n1; do
      timeout 60 ./host bench --ptx $who.ptx --sizes $SIZES $flag --format json --output $W/bench-$who-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$who $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "bench round $round"
done
for n in 4096 65536 8388608; do
  timeout 120 ncu --section SourceCounters --section WarpStateStats --warp-sampling-interval 0 --cache-control none --kernel-name sum_deterministic -f -o /tmp/rep-$n ./host bench --ptx n1.ptx --sizes $n --runs 1 --warmup 1 > $W/ncu-log-$n.txt 2>&1
  echo "rc=$?" >> $W/ncu-log-$n.txt
  timeout 60 ncu -i /tmp/rep-$n.ncu-rep --page source --csv --print-source sass > $W/src-sum_deterministic-$n.csv 2>&1
  timeout 60 ncu -i /tmp/rep-$n.ncu-rep --page details > $W/details-sum_deterministic-$n.txt 2>&1
  t "ncu $n"
done
rm -rf $W
