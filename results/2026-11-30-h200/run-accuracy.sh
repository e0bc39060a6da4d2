#!/bin/bash
# The evidence run for part 8 (the accuracy command and the correctly rounded
# kernel), on the GPU machine, with the same .device/ layout as run.sh plus
# .device/heavy-tailed.npy: 2^20 float32 values, log-normal magnitudes
# (sigma 3) with random signs, written by a Python script with seed 2026
# (the README shows how to make such a file with NumPy). Logs come back as
# $OUT/logs-accuracy.tgz.
set -u
L=$OUT/logs; R=$OUT/logs/results; mkdir -p $L $R
cd .device
t() { echo "== $(date -u +%T) $*" >> $L/timeline-accuracy.txt; }
rc() { echo "rc=$?" >> "$1"; }
t gpu-tests; ./gpu > $R/gpu-tests.txt 2>&1; rc $R/gpu-tests.txt
t accuracy; ./host accuracy --format json --output $R/accuracy.json --plot $R/accuracy.svg > $L/accuracy-json.txt 2>&1; rc $L/accuracy-json.txt
./host accuracy > $R/accuracy.txt 2>&1; rc $R/accuracy.txt
t accuracy-file; ./host accuracy --input heavy-tailed.npy > $R/accuracy-heavy-tailed.txt 2>&1; rc $R/accuracy-heavy-tailed.txt
t accuracy-2e28; ./host accuracy --spread uniform,wide --sizes 268435456 --runs 5 > $R/accuracy-2e28.txt 2>&1; rc $R/accuracy-2e28.txt
t bench; ./host bench --plot $R/bench-with-rounded.svg > $R/bench-with-rounded.txt 2>&1; rc $R/bench-with-rounded.txt
./host bench --cold > $R/bench-cold-with-rounded.txt 2>&1; rc $R/bench-cold-with-rounded.txt
t sweep; ./host sweep > $R/sweep-256-with-rounded.txt 2>&1; rc $R/sweep-256-with-rounded.txt
t ncu; timeout 240 ncu --kernel-name regex:"sum_(bandwidth|correctly_rounded)" --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum ./host bench --sizes 268435456 --runs 1 --warmup 0 > $R/ncu-rounded.txt 2>&1; rc $R/ncu-rounded.txt
t sanitize; timeout 300 ./xtask sanitize --host ./host --out $L/sanitizer > $R/sanitize-with-rounded.txt 2>&1; rc $R/sanitize-with-rounded.txt
t done
tar czf $OUT/logs-accuracy.tgz -C $OUT logs
