#!/bin/bash
# A/B of results/explore/cr-loop/v14.patch: main's embedded PTX against v14's (--ptx),
# rounds interleaved, warm and cold; then v14's accuracy, memcheck at ragged sizes,
# and the GPU tests built with v14 embedded.
set -u
export PATH=$PATH:/usr/local/cuda/bin
tar xzf target/dev/carry.tgz
H=target/release/host; V=target/dev/v14.ptx; S=1048576,4194304,16777216,67108864,268435456
A=/tmp/ab; mkdir -p $A; t0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $A/machine.txt 2>&1
for r in 1 2 3; do
  for c in "" --cold; do
    n=warm; [ -n "$c" ] && n=cold
    $H bench $c --sizes $S --format json --output $A/main-$n-$r.json > $A/main-$n-$r.log 2>&1; echo "main $n $r rc=$?"
    $H bench $c --ptx $V --sizes $S --format json --output $A/v14-$n-$r.json > $A/v14-$n-$r.log 2>&1; echo "v14 $n $r rc=$?"
  done
done
echo "bench done $(( $(date +%s) - t0 ))s"
$H accuracy --ptx $V > $A/accuracy-v14.txt 2>&1; echo "accuracy v14 rc=$?"
$H accuracy > $A/accuracy-main.txt 2>&1; echo "accuracy main rc=$?"
compute-sanitizer --tool memcheck --print-limit 20 --show-backtrace no $H bench --ptx $V --sizes 4097,65539,1048579,16777219 --runs 1 --warmup 1 > $A/memcheck-v14.txt 2>&1; echo "memcheck v14 rc=$?"
target/dev/gpu-v14 > $A/gpu-tests-v14.txt 2>&1; echo "gpu tests v14 rc=$? $(( $(date +%s) - t0 ))s"
tail -3 $A/gpu-tests-v14.txt
tar czf $OUT/ab14.tgz -C /tmp ab
