#!/bin/bash
# Part 7 on the H200, a diagnosis of the final kernel (815e5e1): what a cold
# cache costs the deterministic and bandwidth kernels at 4,096 and 65,536
# floats. ncu profiles each kernel's two launches (one warm-up, one timed) of
# a bench, once with every cache flushed before each pass (`--cache-control
# all`: code, data and L2 cold) and once with none flushed (the second launch
# finds code and input in cache), and reports the duration, the busiest SM's
# active cycles and the stall reasons per issued instruction. Run from the
# repository root with .device/ holding host. Everything comes back as
# $OUT/part7l.tar.gz.
set -u
cd .device; W=$OUT/part7l; mkdir -p $W
M='gpu__time_duration.sum,sm__cycles_active.max,smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_(no_instruction|barrier|long_scoreboard|wait|membar|branch_resolving|imc_miss)_per_issue_active\.ratio'
for cache in all none; do
  for n in 4096 65536; do
    timeout 90 ncu --cache-control $cache --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics "$M" ./host bench --sizes $n --runs 1 --warmup 1 > $W/ncu-$cache-$n.txt 2>&1; echo "rc=$?" >> $W/ncu-$cache-$n.txt
  done
done
tar czf $OUT/part7l.tar.gz -C $OUT part7l && rm -rf $W
