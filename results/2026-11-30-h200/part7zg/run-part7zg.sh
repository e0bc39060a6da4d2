#!/bin/bash
# Part 7 on the H200: the submitted build (b7d11bc) under ncu, for the
# README's account of two misses. (1) 2^28, warm: duration and the least
# busy, average and busiest SM's active cycles of the deterministic and
# bandwidth kernels (part7s measured a3da881). (2) 4,096, warm: warp-state
# samples per SASS instruction of the deterministic kernel, and CUB's. Run
# from the repository root with .device/ holding host. Everything comes back
# as $OUT/part7zg.tar.gz.
set -u
ROOT=$(pwd); cd .device; W=$OUT/part7zg; mkdir -p $W
cp "$ROOT/xtask/nvcc/cub_sum.cu" .
M='gpu__time_duration.sum,sm__cycles_active.max,sm__cycles_active.avg,sm__cycles_active.min'
timeout 150 ncu --cache-control none --kernel-name regex:'sum_(deterministic|bandwidth)$' --metrics "$M" ./host bench --sizes 268435456 --runs 1 --warmup 1 > $W/ncu-2e28.txt 2>&1
echo "rc=$?" >> $W/ncu-2e28.txt
timeout 120 ncu --section SourceCounters --warp-sampling-interval 0 --cache-control none --kernel-name sum_deterministic -f -o /tmp/rep-4096 ./host bench --sizes 4096 --runs 1 --warmup 1 > $W/ncu-log-4096.txt 2>&1
timeout 60 ncu -i /tmp/rep-4096.ncu-rep --page source --csv --print-source sass > $W/src-sum_deterministic-4096.csv 2>&1
nvcc -O3 -arch=sm_90 -std=c++17 cub_sum.cu -o cub_sum > $W/nvcc.txt 2>&1
timeout 120 ncu --section SourceCounters --warp-sampling-interval 0 --cache-control none --kernel-name regex:Reduce -f -o /tmp/rep-cub ./cub_sum 1 1 4096 > $W/ncu-log-cub-4096.txt 2>&1
timeout 60 ncu -i /tmp/rep-cub.ncu-rep --page source --csv --print-source sass > $W/src-cub-4096.csv 2>&1
tar czf $OUT/part7zg.tar.gz -C $OUT part7zg; rm -rf $W
