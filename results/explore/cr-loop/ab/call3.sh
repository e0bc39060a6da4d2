#!/bin/bash
# A/B 3: main's embedded PTX against hybb (main's loop below 64 quads a thread, the wide
# loop of v14b from there) and v14b, rounds interleaved, warm and cold; then hybb's
# accuracy, memcheck at ragged sizes, and the GPU tests built with hybb embedded.
set -u
export PATH=$PATH:/usr/local/cuda/bin
tar xzf target/dev/carry3.tgz
H=target/release/host; S=262144,1048576,4194304,16777216,33554432,67108864,268435456
A=/tmp/ab3; mkdir -p $A; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
for r in 1 2 3; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    $H bench $c --sizes $S --format json --output $A/main-$n-$r.json > $A/main-$n-$r.log 2>&1; echo "main $n $r rc=$?"
    for v in hybb v14b; do
      $H bench $c --ptx target/dev/$v.ptx --sizes $S --format json --output $A/$v-$n-$r.json > $A/$v-$n-$r.log 2>&1; echo "$v $n $r rc=$?"
    done
  done
done
echo "bench done $(( $(date +%s) - t0 ))s"
$H accuracy --ptx target/dev/hybb.ptx > $A/accuracy-hybb.txt 2>&1; echo "accuracy hybb rc=$?"
compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no $H bench --ptx target/dev/hybb.ptx --sizes 4097,65539,1048579,16777219,67108867 --runs 1 --warmup 1 > $A/memcheck-hybb.txt 2>&1; echo "memcheck hybb rc=$?"
target/dev/gpu-hybb > $A/gpu-tests-hybb.txt 2>&1; echo "gpu tests hybb rc=$? $(( $(date +%s) - t0 ))s"
tail -3 $A/gpu-tests-hybb.txt
tar czf $OUT/ab3.tgz -C /tmp ab3
