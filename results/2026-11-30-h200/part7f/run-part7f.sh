#!/bin/bash
# Part 7, a second diagnosis on the H200 (kernel of a76751d = pA.ptx).
# (1) Registers: pA.ptx with `.maxnreg 40` and `.maxnreg 32` inserted into
# sum_deterministic (6 and 8 blocks of 256 per SM instead of 4; ptxas spills
# 116 and 312 bytes) against pA and 67ac622's p0.ptx, bench at 2^24 and 2^28,
# warm and cold, alternating, two rounds.
# (2) The shared-memory carveout: host-exp is this commit's host plus an
# environment variable LAB_CARVEOUT_<kernel> that sets the function's
# preferred carveout (percent of the maximum shared memory); cold bench at
# small sizes with the defaults, with the bandwidth kernel at 100, and with
# the deterministic kernel at 0, two rounds.
# (3) ncu's stall reasons (per issued instruction) and active cycles for the
# two kernels at 4096 and 65,536 floats, caches flushed.
# Run from the repository root with .device/ holding host, host-exp and the
# PTX files. Everything comes back as $OUT/part7f.tar.gz.
set -u
cd .device; W=$OUT/part7f; mkdir -p $W
t0=$(date +%s)
t() { echo "$1 at $(( $(date +%s) - t0 )) s" >> $W/timeline.txt; }
for round in 1 2; do
  for temp in warm cold; do
    flag=""; [ $temp = cold ] && flag="--cold"
    for p in p0 pA pA40 pA32; do
      timeout 60 ./host --ptx $p.ptx bench --sizes 16777216,268435456 $flag --format json --output $W/bench-$p-$temp-$round.json 2>> $W/bench-errors.txt
      echo "$p $temp $round rc=$?" >> $W/bench-errors.txt
    done
  done
  t "registers round $round"
done
SMALL=4096,16384,65536,262144,1048576
for round in 1 2; do
  for c in default bw100 det0; do
    case $c in
      default) env="" ;;
      bw100) env="LAB_CARVEOUT_sum_bandwidth=100" ;;
      det0) env="LAB_CARVEOUT_sum_deterministic=0" ;;
    esac
    env $env timeout 60 ./host-exp bench --sizes $SMALL --cold --format json --output $W/carveout-$c-$round.json 2>> $W/bench-errors.txt
    echo "carveout $c $round rc=$?" >> $W/bench-errors.txt
  done
  t "carveout round $round"
done
M='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__cycles_active.max,sm__cycles_active.avg,gpc__cycles_elapsed.max,smsp__inst_executed.sum'
for n in 4096 65536; do
  timeout 90 ncu --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics "$M" ./host --ptx pA.ptx bench --sizes $n --runs 1 --warmup 0 > $W/ncu-stalls-$n.txt 2>&1; echo "rc=$?" >> $W/ncu-stalls-$n.txt
  t "ncu $n"
done
tar czf $OUT/part7f.tar.gz -C $OUT part7f && rm -rf $W
