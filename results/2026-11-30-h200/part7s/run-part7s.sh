#!/bin/bash
# Part 7 on the H200, a diagnosis of the submitted kernel (a3da881's, built at
# HEAD) against 249c14a (host-before, with the same timing): ncu's duration and
# the fastest, average and slowest SM's active cycles of the deterministic and
# bandwidth kernels at 2^23 and 2^28, warm (one warm-up launch, one timed;
# caches not flushed by ncu). A one-block tail shows as a slowest SM far above
# the average. Run from the repository root with .device/ holding host and
# host-before. Everything comes back as $OUT/part7s.tar.gz.
set -u
cd .device; W=$OUT/part7s; mkdir -p $W
M=gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_active.min,gpc__cycles_elapsed.max
for who in host host-before; do
  for n in 8388608 268435456; do
    { timeout 90 ncu --cache-control none --kernel-name regex:"sum_(bandwidth|deterministic)" --metrics $M ./$who bench --sizes $n --runs 1 --warmup 1; echo "rc=$?"; } > $W/ncu-$who-$n.txt 2>&1
  done
done
tar czf $OUT/part7s.tar.gz -C $OUT part7s && rm -rf $W
