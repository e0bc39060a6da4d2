#!/bin/bash
# The correctly rounded sum's cluster route, first run: the GPU tests built with it,
# an A/B of main's binary (target/dev/host-main) against this build at the sizes
# around the route, rounds interleaved, warm and cold; accuracy; memcheck on the
# route's fast path (bench) and its way out (the NaN and infinity test).
set -u
export PATH=$PATH:/usr/local/cuda/bin
tar xzf target/dev/carry5.tgz
A=/tmp/c; mkdir -p $A; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
target/dev/gpu-new > $A/gpu-tests.txt 2>&1; echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"
tail -3 $A/gpu-tests.txt; grep -E "FAILED|failed|cluster" $A/gpu-tests.txt | head -20
S=8192,16384,32768,65536,131072,262144
for r in 1 2 3; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    target/dev/host-main bench $c --sizes $S --format json --output $A/main-$n-$r.json > $A/main-$n-$r.log 2>&1; echo "main $n $r rc=$?"
    target/release/host bench $c --sizes $S --format json --output $A/new-$n-$r.json > $A/new-$n-$r.log 2>&1; echo "new $n $r rc=$?"
  done
done
echo "bench done $(( $(date +%s) - t0 ))s"
target/release/host accuracy > $A/accuracy.txt 2>&1; echo "accuracy rc=$?"
compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no target/release/host bench --sizes 16384,24577,65539,100003,131072 --runs 1 --warmup 1 > $A/memcheck-bench.txt 2>&1; echo "memcheck bench rc=$?"
compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no target/dev/gpu-new --exact correctly_rounded_sum_of_nan_and_infinities > $A/memcheck-nan.txt 2>&1; echo "memcheck nan rc=$?"
tail -2 $A/memcheck-bench.txt $A/memcheck-nan.txt
echo "all done $(( $(date +%s) - t0 ))s"
tar czf $OUT/c.tgz -C /tmp c
