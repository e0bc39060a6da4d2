#!/bin/bash
# The few-chunk entry up to 32 chunks, first run: the GPU tests built with it, then an A/B of main's host
# binary (target/dev/host-main, c2e19ad's kernels) against this build's (target/dev/host-few32) at 8 to 34
# chunks, five interleaved rounds, warm and cold.
set -u
export PATH=$PATH:/usr/local/cuda/bin
A=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
target/dev/gpu-few32 > $A/gpu-tests.txt 2>&1; echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"
tail -2 $A/gpu-tests.txt; grep -E "FAILED|failed|launch loops" $A/gpu-tests.txt | head
S=65536,73729,131072,196608,262144,270337
for r in 1 2 3 4 5; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    target/dev/host-main bench $c --sizes $S --format json --output $A/main-$n-$r.json > /dev/null 2>> $A/errors.txt; echo -n "main $n $r rc=$? "
    target/dev/host-few32 bench $c --sizes $S --format json --output $A/few32-$n-$r.json > /dev/null 2>> $A/errors.txt; echo "few32 rc=$?"
  done
done
echo "bench done $(( $(date +%s) - t0 ))s"
cd $A && tar czf ab.tgz main-*.json few32-*.json && rm main-*.json few32-*.json
