#!/bin/bash
# Nsight Compute counters for the bandwidth, deterministic and correctly rounded
# sums at 2^24, 2^26 and 2^28 (bench's sparse input), and for the correctly
# rounded sum on accuracy's wide-spread array at 2^24 (the filter defeated).
set -u
export PATH=$PATH:/usr/local/cuda/bin
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > $OUT/machine.txt 2>&1
ncu --cache-control none --kernel-name regex:'^sum_(bandwidth|deterministic|correctly_rounded)$' --metrics $M --csv --print-units base \
  target/release/host bench --sizes 16777216,67108864,268435456 --runs 1 --warmup 1 > $OUT/bench-profile.csv 2> $OUT/bench-profile.err
echo "bench rc=$?"
ncu --cache-control none --kernel-name regex:'^sum_correctly_rounded$' --metrics $M --csv --print-units base \
  target/release/host accuracy --spread wide --sizes 16777216 --runs 1 > $OUT/wide-profile.csv 2> $OUT/wide-profile.err
echo "wide rc=$?"
wc -l $OUT/*.csv; for f in $OUT/*.err; do tail -n 3 "$f"; done
