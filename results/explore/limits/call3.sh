#!/bin/bash
# The third call: limits.cu with `chunk_red` run up to 2^24, each launch waited for ("each", as the first two
# calls) and then every kernel's launches queued before any time is read ("queued", as host bench and
# cub_sum.cu time), ten rounds (five past 2^24).
set -u
export PATH=$PATH:/usr/local/cuda/bin
A=$OUT; t0=$(date +%s)
date -u > $A/machine-3.txt
nvcc -O3 -arch=sm_90 -I target/cccl/nvidia/cu13/include/cccl -o /tmp/limits results/explore/limits/limits.cu -lcuda > $A/build-3.txt 2>&1; echo "build rc=$? $(( $(date +%s) - t0 ))s"
for mode in each queued; do
  /tmp/limits target/ptx/kernels.ptx target/ptx/kernels-sm90.ptx 10 $mode > $A/out-$mode.txt 2>&1; echo "limits $mode rc=$? $(( $(date +%s) - t0 ))s"
done
grep -c '^time' $A/out-*.txt; grep -v '^time' $A/out-queued.txt | head -20
