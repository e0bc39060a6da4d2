#!/bin/bash
# The bandwidth kernel's grid rule at mid sizes: main's host binary (target/dev/host-main: 4 floats a thread
# before the grid fills the device) against two builds that differ only in that rule (host-bw16, host-bw32:
# 16 and 32 floats a thread), three interleaved rounds, warm and cold.
set -u
export PATH=$PATH:/usr/local/cuda/bin
A=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
S=65536,131072,262144,1048576,4194304,16777216
for r in 1 2 3; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    for b in main bw16 bw32; do
      target/dev/host-$b bench $c --sizes $S --format json --output $A/$b-$n-$r.json > /dev/null 2>> $A/errors.txt; echo -n "$b $n $r rc=$? "
    done; echo
  done
done
echo "bench done $(( $(date +%s) - t0 ))s"
cd $A && tar czf ab.tgz main-*.json bw16-*.json bw32-*.json && rm main-*.json bw16-*.json bw32-*.json
